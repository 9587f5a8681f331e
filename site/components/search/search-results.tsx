'use client';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useId, useState } from 'react';
import { useAccount } from '@/components/account/use-account';
import { ListingEmpty } from '@/components/catalogue/listing-empty';
import { ListingFrame } from '@/components/catalogue/listing-frame';
import { Pager } from '@/components/catalogue/pager';
import { ProductGrid } from '@/components/catalogue/product-grid';
import { LoadFailed } from '@/components/errors/load-failed';
import { ApiError, fieldProblems } from '@/lib/api';
import { activeFilterCount, SEARCH_SORTS, withoutFilters, type ListingState } from '@/lib/listing';
import { readSearchParams, searchCatalogue, searchHref, type SearchParams, type SearchResult } from '@/lib/search';

type Option = { value: string; label: string };
type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'error'; message: string; retry: boolean } | { kind: 'done'; result: SearchResult };

/** The search page: the range and category, ranked results from GET /api/search with the
 * server's sort, facets and counts (each change is a new /search/ address, so Back undoes
 * it), paging, and the empty, no-result and error states. */
export function SearchResults({ ranges, categories }: { ranges: Option[]; categories: (Option & { range: string })[] }) {
  const router = useRouter();
  const account = useAccount();
  const signedIn = account.user !== 0;
  const asked = readSearchParams(useSearchParams());
  // In stock now is a signed-in buyer's filter: signed out, it is left out of the search.
  const params = { ...asked, inStock: asked.inStock && signedIn };
  const waitForAccount = asked.inStock && account.status === 'loading';
  const key = searchHref(params);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [last, setLast] = useState<SearchResult | null>(null);
  const [attempt, setAttempt] = useState(0);
  const rangeId = useId();
  const categoryId = useId();
  // A change on its way to the address bar: router.push updates the search parameters in
  // a transition, and the ticked box must not wait for it. Forgotten once the address
  // changes (the change arrived, or Back was pressed).
  const [pending, setPending] = useState<{ href: string; state: SearchParams } | null>(null);
  const current = searchHref(asked);
  useEffect(() => setPending(null), [current]);
  const shown = pending && pending.href !== current ? pending.state : asked;

  useEffect(() => {
    if (!params.q) {
      setState({ kind: 'idle' });
      return;
    }
    if (waitForAccount) return;
    const ctl = new AbortController();
    setState({ kind: 'loading' });
    searchCatalogue(params, ctl.signal)
      .then((result) => {
        setState({ kind: 'done', result });
        setLast(result);
      })
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        const invalid = err instanceof ApiError && err.status === 400;
        const message = invalid ? [err.message, ...Object.values(fieldProblems(err))].join(' ') : 'Search is unavailable right now.';
        setState({ kind: 'error', message, retry: !invalid });
      });
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is the search
  }, [key, attempt, waitForAccount]);

  if (!params.q) return <p>Enter a product name, SKU or range in the search box above.</p>;
  const shownCategories = categories.filter((c) => !params.range || c.range === params.range);
  const go = (s: ListingState) => {
    const next = { ...asked, ...s };
    const href = searchHref(next);
    // The controls show the choice at once; the address (and so the search) follows.
    setPending({ href, state: next });
    router.push(href);
  };
  const result = state.kind === 'done' ? state.result : null;
  let countText = '';
  if (state.kind === 'loading') countText = `Searching for “${params.q}”…`;
  else if (result && result.total > 0)
    countText = `${result.total} ${result.total === 1 ? 'result' : 'results'} for “${params.q}”${result.pages > 1 ? `, page ${result.page} of ${result.pages}` : ''}`;
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
      <ListingFrame
        facets={last?.facets ?? []}
        prices={last?.prices ?? []}
        state={shown}
        onChange={go}
        sorts={SEARCH_SORTS}
        countText={countText}
        stock={{ signedIn }}
        preview={() => null}
      >
        {state.kind === 'error' &&
          (state.retry ? <LoadFailed what={state.message} retry={() => setAttempt((n) => n + 1)} /> : <p role="alert">{state.message}</p>)}
        {result && result.total === 0 && activeFilterCount(params) > 0 && <ListingEmpty onClear={() => go(withoutFilters(asked))} />}
        {result && result.total === 0 && activeFilterCount(params) === 0 && (
          <p role="status" className="no-results">
            No products match “{params.q}”. Check the spelling, try fewer words, or browse the ranges from the menu.
          </p>
        )}
        {result && result.total > 0 && (
          <>
            <ProductGrid products={result.hits} label={`Results for ${params.q}`} />
            <Pager page={result.page} pages={result.pages} label="Result pages" href={(n) => searchHref({ ...asked, page: n })} />
          </>
        )}
      </ListingFrame>
    </>
  );
}
