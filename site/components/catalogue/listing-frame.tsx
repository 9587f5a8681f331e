'use client';
import { useId, useRef, useState, type ReactNode } from 'react';
import { activeFilterCount, type FacetCounts, type ListingState, type PriceOption } from '@/lib/listing';
import { FilterDialog } from './filter-dialog';
import { FilterPanel, type StockChoice } from './filter-panel';
import { ListingToolbar } from './listing-toolbar';

/** A listing's sort and filter controls around its results (children): at 900 px and
 * wider the filters are a sidebar, each change applied at once; narrower, a Filters
 * button opens them in a modal panel (FilterDialog). The sidebar is in the static HTML
 * from the first paint, drawn from the build's counts, so nothing moves when the filter
 * index arrives. Any pointer or focus inside calls onInteract (the index is fetched on
 * first use). */
export function ListingFrame({
  facets,
  prices,
  state,
  onChange,
  sorts,
  explicitDefault = false,
  countText,
  stock,
  preview,
  onInteract,
  onWantStock,
  children,
}: {
  facets: readonly FacetCounts[];
  prices: readonly PriceOption[];
  state: ListingState;
  onChange: (s: ListingState) => void;
  sorts: readonly string[];
  /** Choosing the default sort writes it (a range page, whose unfiltered view is its featured lines). */
  explicitDefault?: boolean;
  countText: string;
  stock: StockChoice;
  /** What a draft would show (the phone panel's counts), or null while not known. */
  preview: (draft: ListingState) => { total: number; facets: FacetCounts[] } | null;
  onInteract?: () => void;
  /** Told when the phone panel's draft ticks in stock now, so its count can take the stock in. */
  onWantStock?: () => void;
  children: ReactNode;
}) {
  const headingId = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(state);
  const drafted = open ? preview(draft) : null;
  const onSort = (sort: string) => onChange({ ...state, sort: sort === sorts[0] && !explicitDefault ? '' : sort, page: 1 });
  return (
    <div className="listing" onPointerDownCapture={onInteract} onFocusCapture={onInteract}>
      <section className="listing-filters" aria-labelledby={headingId}>
        <h2 id={headingId} className="filters-title">
          Filter lines
        </h2>
        {!open && <FilterPanel facets={facets} prices={prices} state={state} onChange={onChange} stock={stock} />}
      </section>
      <div className="listing-main">
        <ListingToolbar
          countText={countText}
          sorts={sorts}
          sort={state.sort || (sorts[0] ?? '')}
          onSort={onSort}
          filterCount={activeFilterCount(state)}
          openerRef={opener}
          onOpenFilters={() => {
            setDraft(state);
            setOpen(true);
          }}
        />
        {children}
      </div>
      <FilterDialog
        open={open}
        draft={draft}
        onDraft={(s) => {
          setDraft(s);
          if (s.inStock) onWantStock?.();
        }}
        onApply={onChange}
        onClose={() => setOpen(false)}
        facets={drafted?.facets ?? facets}
        prices={prices}
        total={drafted ? drafted.total : null}
        stock={stock}
        opener={opener}
      />
    </div>
  );
}
