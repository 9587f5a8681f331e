'use client';
import { useRef, type ReactNode } from 'react';
import { isFilteredView, LISTING_SORTS, linesText, listingHref, type ListingFilters } from '@/lib/listing';
import { ListingFrame } from './listing-frame';
import { Pager } from './pager';
import { listingResults } from './listing-results';
import { useListing } from './use-listing';

/** A range page's lines: its featured lines (children, in the static HTML) until the buyer
 * sorts or filters, or follows "See all", which shows the range's whole listing (every
 * active line in featured order, sort=featured in the URL), 48 a page, drawn from the
 * range's filter index. */
export function RangeListing({
  path,
  name,
  range,
  featured,
  filters,
  children,
}: {
  path: string;
  name: string;
  /** The range's url text (POST /api/listing-stock). */
  range: string;
  /** How many featured lines children shows. */
  featured: number;
  filters: ListingFilters;
  children: ReactNode;
}) {
  const l = useListing(filters, { range });
  const { state, result, listing } = l;
  const total = filters.products;
  const whole = isFilteredView(state);
  const heading = useRef<HTMLHeadingElement>(null);

  let body: ReactNode;
  let countText = `${featured} featured of ${linesText(total)}`;
  if (!whole) {
    body = (
      <>
        {children}
        {total > featured && (
          <p>
            <button
              type="button"
              className="button"
              onClick={() => {
                l.change({ ...state, sort: 'featured', page: 1 });
                // The button goes with the featured lines: focus moves to the listing's heading.
                requestAnimationFrame(() => heading.current?.focus());
              }}
            >
              See all {linesText(total)}
            </button>
          </p>
        )}
      </>
    );
  } else {
    const r = listingResults(l, children, (n) => (n > 1 ? `${name}, page ${n}` : `All ${name}`), 3);
    if (r.countText !== null) countText = r.countText;
    body = (
      <>
        {r.grid}
        {r.countText !== null && (
          <Pager page={r.page} pages={r.pages} label="Pages" href={(n) => listingHref(path, { ...state, page: n })} onPick={l.pickPage} />
        )}
      </>
    );
  }
  return (
    <>
      <h2 ref={heading} tabIndex={-1}>
        {whole ? `All ${name}` : 'Featured lines'}
      </h2>
      <ListingFrame
        facets={result?.facets ?? filters.facets}
        prices={filters.prices}
        state={state}
        onChange={l.change}
        sorts={LISTING_SORTS}
        explicitDefault
        countText={countText}
        stock={l.stock}
        preview={l.preview}
        onInteract={l.prepare}
        onWantStock={l.wantStock}
      >
        {body}
      </ListingFrame>
    </>
  );
}
