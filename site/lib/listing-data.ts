import { idToken } from './account-store';
import { apiFetch } from './api';
import { decodeListing, LISTING_SORTS, sortOrder, type Listing } from './listing';
import type { FilterIndex } from './api-types';

/** Which listing POST /api/listing-stock is asked about: a category by id or a range by
 * its url text. */
export type StockTarget = { category: number } | { range: string };

const listings = new Map<string, Promise<Listing>>();

/** A listing's filter index (its _filter.json), fetched once per page view with the
 * build code as query, as payloads are (lib/prefetch), and decoded. A failed fetch is
 * forgotten, so trying again fetches again. */
export function loadListing(indexPath: string): Promise<Listing> {
  const known = listings.get(indexPath);
  if (known) return known;
  const code = document.documentElement.dataset.code ?? '';
  const url = `${indexPath}?${encodeURIComponent(code)}`;
  const loading = fetch(url)
    .then((r) => (r.ok ? (r.json() as Promise<FilterIndex>) : Promise.reject(new Error(`filter index answered ${r.status}`))))
    .then((index) => {
      const listing = decodeListing(index);
      // Each sort's order is made once; making them at an idle moment now (the name sort
      // is the dearest, a few ms at 2,000 lines) keeps the buyer's first change quick.
      const warm = () => LISTING_SORTS.forEach((sort) => sortOrder(listing, sort));
      if ('requestIdleCallback' in window) window.requestIdleCallback(warm, { timeout: 3000 });
      else setTimeout(warm, 0);
      return listing;
    });
  loading.catch(() => listings.delete(indexPath));
  listings.set(indexPath, loading);
  return loading;
}

/** The SKUs of a listing that are not in stock now (out of stock or pre-order), for the
 * signed-in buyer's "In stock now" filter. */
export async function listingNotInStock(target: StockTarget, signal?: AbortSignal): Promise<Set<string>> {
  const { not_in_stock } = await apiFetch<{ not_in_stock: string[] }>('/api/listing-stock', {
    body: { token: await idToken(), ...target },
    ...(signal && { signal }),
  });
  return new Set(not_in_stock);
}
