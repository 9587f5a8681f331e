'use client';
import { useSearchParams } from 'next/navigation';
import { useEffect, useId, useState } from 'react';
import { Pager } from '@/components/catalogue/pager';
import { ProductGrid } from '@/components/catalogue/product-grid';
import { LoadFailed } from '@/components/errors/load-failed';
import { ApiError, fieldProblems } from '@/lib/api';
import { readSearchParams, searchCatalogue, searchHref, type SearchResult } from '@/lib/search';

type Option = { value: string; label: string };
type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'error'; message: string; retry: boolean } | { kind: 'done'; result: SearchResult };

/** The search page: filters, ranked results from GET /api/search, paging, and the
 * empty, no-result and error states. */
export function SearchResults({ ranges, categories }: { ranges: Option[]; categories: (Option & { range: string })[] }) {
  const params = readSearchParams(useSearchParams());
  const key = searchHref(params);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const rangeId = useId();
  const categoryId = useId();

  useEffect(() => {
    if (!params.q) {
      setState({ kind: 'idle' });
      return;
    }
    const ctl = new AbortController();
    setState({ kind: 'loading' });
    searchCatalogue(params, ctl.signal)
      .then((result) => setState({ kind: 'done', result }))
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        const invalid = err instanceof ApiError && err.status === 400;
        const message = invalid ? [err.message, ...Object.values(fieldProblems(err))].join(' ') : 'Search is unavailable right now.';
        setState({ kind: 'error', message, retry: !invalid });
      });
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is the search
  }, [key, attempt]);

  if (!params.q) return <p>Enter a product name, SKU or range in the search box above.</p>;
  const shownCategories = categories.filter((c) => !params.range || c.range === params.range);
  return (
    <>
      <form className="search-filters" action="/search/" method="get" aria-label="Filter results">
        <input type="hidden" name="q" value={params.q} />
        <label htmlFor={rangeId}>Range</label>
        <select id={rangeId} name="range" defaultValue={params.range} key={`r-${params.range}`}>
          <option value="">All ranges</option>
          {ranges.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
        <label htmlFor={categoryId}>Category</label>
        <select id={categoryId} name="category" defaultValue={params.category} key={`c-${params.category}`}>
          <option value="">All categories</option>
          {shownCategories.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        <button type="submit" className="button">
          Apply
        </button>
      </form>
      {state.kind === 'loading' && <p role="status">Searching for “{params.q}”…</p>}
      {state.kind === 'error' &&
        (state.retry ? <LoadFailed what={state.message} retry={() => setAttempt((n) => n + 1)} /> : <p role="alert">{state.message}</p>)}
      {state.kind === 'done' && state.result.total === 0 && (
        <p role="status" className="no-results">
          No products match “{params.q}”. Check the spelling, try fewer words, or browse the ranges from the menu.
        </p>
      )}
      {state.kind === 'done' && state.result.total > 0 && (
        <>
          <p role="status">
            {state.result.total} {state.result.total === 1 ? 'result' : 'results'} for “{params.q}”
            {state.result.pages > 1 && `, page ${state.result.page} of ${state.result.pages}`}
          </p>
          <ProductGrid products={state.result.hits} label={`Results for ${params.q}`} />
          <Pager page={state.result.page} pages={state.result.pages} label="Result pages" href={(n) => searchHref({ ...params, page: n })} />
        </>
      )}
    </>
  );
}
