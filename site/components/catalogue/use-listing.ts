'use client';
import { usePathname } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useAccount } from '@/components/account/use-account';
import { applyListing, isFilteredView, listingHref, parseListingState, UNFILTERED, type Listing, type ListingFilters, type ListingState } from '@/lib/listing';
import { listingNotInStock, loadListing, type StockTarget } from '@/lib/listing-data';
import { afterLoadSettled } from '@/lib/prefetch';
import { reportError } from '@/lib/report';

/** Where a listing's filter index is: not asked for yet, on its way, failed, or here. */
export type IndexStatus = 'idle' | 'loading' | 'failed' | 'ready';

/** A category's or range's sort and filter state, held in the query string. The server
 * render (and the first client render) is the unfiltered view; the URL is read in an
 * effect, so the static HTML stays the same for every query string (no useSearchParams).
 * The filter index is fetched when the view needs it (a filtered view, a page after the
 * first), on the buyer's first interaction (prepare), or once the load has settled; never
 * before the first paint. */
export function useListing(filters: ListingFilters, stockTarget: StockTarget) {
  const pathname = usePathname();
  const [state, setState] = useState<ListingState>(UNFILTERED);
  const [listing, setListing] = useState<Listing | null>(null);
  const [status, setStatus] = useState<IndexStatus>('idle');
  const account = useAccount();
  const signedIn = account.user !== 0;
  const [stock, setStock] = useState<{ for: string; notInStock: Set<string> | null; failed: boolean } | null>(null);
  const buyer = account.user === 0 ? '' : account.user.uid;
  const { facets, prices, index } = filters;

  useEffect(() => {
    const sync = () => setState(parseListingState(window.location.search, { facets, prices }));
    sync();
    window.addEventListener('popstate', sync);
    return () => window.removeEventListener('popstate', sync);
  }, [facets, prices, pathname]);

  // Whether the index has been asked for: a ref, so prepare stays one function and the
  // effects that call it run once (a failure is not retried until the buyer acts again).
  const asked = useRef(false);
  const prepare = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    setStatus('loading');
    loadListing(index).then(
      (l) => {
        setListing(l);
        setStatus('ready');
      },
      (err: unknown) => {
        asked.current = false;
        reportError(err, { context: { where: 'filter index' } });
        setStatus('failed');
      },
    );
  }, [index]);

  const filtered = isFilteredView(state);
  // The unfiltered first page is the static HTML with the build's counts; every other view
  // is drawn from the index (issue 40: at idle it was applied to that page for nothing).
  const applied = filtered || state.page > 1;
  // Asked again on every page too, so an index that failed to load is retried by Back.
  useEffect(() => {
    if (applied) prepare();
  }, [applied, state.page, prepare]);
  useEffect(() => afterLoadSettled(prepare), [prepare]);

  // The buyer's stock, asked for when they first choose in stock now; a sign-out or
  // another buyer's sign-in forgets it.
  const stockWanted = state.inStock && signedIn;
  // The phone panel's draft may tick in stock now before it is applied: its count needs the stock too.
  const [draftWantsStock, setDraftWantsStock] = useState(false);
  const stockNeeded = (stockWanted || draftWantsStock) && signedIn;
  const stockKey = JSON.stringify(stockTarget);
  const [stockAttempt, setStockAttempt] = useState(0);
  useEffect(() => {
    if (!stockNeeded || (stock?.for === buyer && !stock.failed)) return;
    const ctl = new AbortController();
    listingNotInStock(JSON.parse(stockKey) as StockTarget, ctl.signal).then(
      (notInStock) => setStock({ for: buyer, notInStock, failed: false }),
      (err: unknown) => {
        if (ctl.signal.aborted) return;
        reportError(err, { context: { where: 'listing stock' } });
        setStock({ for: buyer, notInStock: null, failed: true });
      },
    );
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked again only for a new buyer or a retry
  }, [stockNeeded, buyer, stockKey, stockAttempt]);
  const notInStock = stock?.for === buyer ? stock.notInStock : null;

  // A filtered view is noindex (the canonical link already names the unfiltered page).
  useEffect(() => {
    if (!filtered) return;
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, [filtered]);

  /** Shows a new state and pushes it to the history, so Back undoes it. */
  const change = useCallback(
    (next: ListingState) => {
      const href = listingHref(window.location.pathname, next);
      if (href !== window.location.pathname + window.location.search) window.history.pushState(null, '', href);
      setState(next);
      prepare();
    },
    [prepare],
  );

  const result = useMemo(
    () => (listing && applied ? applyListing(listing, state, stockWanted ? notInStock : null) : null),
    [listing, applied, state, stockWanted, notInStock],
  );
  /** The counts a draft (the phone panel's) would show. */
  const preview = useCallback(
    (draft: ListingState) => {
      if (!listing) return null;
      const r = applyListing(listing, draft, draft.inStock && signedIn ? notInStock : null);
      return { total: r.order.length, facets: r.facets };
    },
    [listing, signedIn, notInStock],
  );

  return {
    state,
    /** Whether the view is drawn from the index (result), not the static first page. */
    applied,
    change,
    /** A pager link's click: shows the page as any other change (a history entry, the
     * index's cards), with focus on the listing's count, which says which lines it shows.
     * A click meant for a new tab or window is left to the link. */
    pickPage: (page: number, e: MouseEvent<HTMLAnchorElement>) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      const count = e.currentTarget.closest('.listing')?.querySelector<HTMLElement>('.listing-count');
      change({ ...state, page });
      requestAnimationFrame(() => count?.focus());
    },
    listing,
    status,
    result,
    preview,
    prepare,
    retry: prepare,
    /** Asks for the buyer's stock ahead of applying in stock now (the phone panel's draft). */
    wantStock: () => setDraftWantsStock(true),
    stock: {
      signedIn,
      checking: stockWanted && !notInStock && !stock?.failed,
      failed: stockWanted && stock?.for === buyer && stock.failed,
      retry: () => setStockAttempt((n) => n + 1),
    },
  };
}

/** A listing's stock control as the panel draws it. */
export type StockControl = ReturnType<typeof useListing>['stock'];
