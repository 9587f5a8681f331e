'use client';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { ApiError, apiFetch } from '@/lib/api';

type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'done'; total: number };

/** Results for ?q= from GET /api/search. */
export function SearchResults() {
  const q = (useSearchParams().get('q') ?? '').trim();
  const [state, setState] = useState<State>({ kind: 'idle' });
  useEffect(() => {
    if (!q) {
      setState({ kind: 'idle' });
      return;
    }
    const ctl = new AbortController();
    setState({ kind: 'loading' });
    apiFetch<{ total: number }>(`/api/search?q=${encodeURIComponent(q)}`, { method: 'GET', signal: ctl.signal })
      .then((r) => setState({ kind: 'done', total: r.total }))
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        const message = err instanceof ApiError && err.status === 404 ? 'Search is not available yet. Please browse the ranges from the menu.' : 'Search is unavailable right now. Please try again shortly.';
        setState({ kind: 'error', message });
      });
    return () => ctl.abort();
  }, [q]);

  if (state.kind === 'idle') return <p>Enter a product name, SKU or range in the search box.</p>;
  if (state.kind === 'loading') return <p role="status">Searching for “{q}”…</p>;
  if (state.kind === 'error') return <p role="alert">{state.message}</p>;
  return <p role="status">{state.total} results for “{q}”.</p>;
}
