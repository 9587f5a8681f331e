'use client';
import { useEffect, useState } from 'react';
import { SUGGEST_FROM, suggestProducts, type SkuProduct } from '@/lib/quick-order';

/** How long typing pauses before the suggestions are asked for. */
const DEBOUNCE_MS = 250;

export interface Suggestions {
  /** The text the products were found for. */
  query: string;
  products: SkuProduct[];
  loading: boolean;
  failed: boolean;
}

const none: Suggestions = { query: '', products: [], loading: false, failed: false };

/** Products matching what is typed in a SKU box (from SUGGEST_FROM characters, once
 * typing pauses), with the buyer's prices and stock. Off while `wanted` is false (the box
 * does not have the focus, or a product was just picked); a newer text cancels the
 * request of an older one. */
export function useSkuSuggestions(text: string, wanted: boolean): Suggestions {
  const [found, setFound] = useState<Suggestions>(none);
  const q = text.trim();
  const asking = wanted && q.length >= SUGGEST_FROM;
  useEffect(() => {
    if (!asking) {
      setFound(none);
      return;
    }
    const stop = new AbortController();
    const timer = setTimeout(() => {
      setFound((f) => ({ ...f, loading: true, failed: false }));
      suggestProducts(q, stop.signal)
        .then((products) => {
          if (!stop.signal.aborted) setFound({ query: q, products, loading: false, failed: false });
        })
        .catch(() => {
          if (!stop.signal.aborted) setFound({ query: q, products: [], loading: false, failed: true });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      stop.abort();
    };
  }, [q, asking]);
  return asking ? found : none;
}
