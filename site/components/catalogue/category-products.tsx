'use client';
import type { ReactNode } from 'react';
import { LISTING_SORTS, listingHref, pageCount, showingText, type ListingFilters } from '@/lib/listing';
import { CATEGORY_PAGE_SIZE } from '@/lib/paging';
import { ListingFrame } from './listing-frame';
import { Pager } from './pager';
import { listingResults } from './listing-results';
import { useListing } from './use-listing';

/** A category's products, 48 a page, with sort and filters (docs/catalogue.md "Sort and
 * filter"). The static HTML holds page 1 in featured order (children) and the controls
 * with the build's counts; every other view (a sort, a filter, ?page=N) is drawn from the
 * category's filter index, fetched on first use. */
export function CategoryProducts({
  path,
  total,
  label,
  category,
  filters,
  children,
}: {
  path: string;
  total: number;
  label: string;
  category: number;
  filters: ListingFilters;
  children: ReactNode;
}) {
  const l = useListing(filters, { category });
  const { state, result, listing } = l;

  let grid: ReactNode = children;
  let countText = total === 0 ? 'No products in this category yet.' : showingText(0, Math.min(CATEGORY_PAGE_SIZE, total), total);
  let page = 1;
  let pages = pageCount(total);
  if (l.applied) {
    const r = listingResults(l, children, (n) => (n > 1 ? `${label}, page ${n}` : label));
    grid = r.grid;
    if (r.countText !== null) ({ page, pages, countText } = r);
    else page = Math.min(state.page, pages);
  }
  return (
    <ListingFrame
      facets={result?.facets ?? filters.facets}
      prices={filters.prices}
      state={state}
      onChange={l.change}
      sorts={LISTING_SORTS}
      countText={countText}
      stock={l.stock}
      preview={l.preview}
      onInteract={l.prepare}
      onWantStock={l.wantStock}
    >
      {grid}
      <Pager page={page} pages={pages} label="Pages" href={(n) => listingHref(path, { ...state, page: n })} onPick={l.pickPage} />
    </ListingFrame>
  );
}
