'use client';
import { useEffect, useId, useRef, type RefObject } from 'react';
import { trapFocus } from '@/components/layout/trap-focus';
import { linesText, withoutFilters, type FacetCounts, type ListingState, type PriceOption } from '@/lib/listing';
import { FilterPanel, type StockChoice } from './filter-panel';

/** The filters on a phone: a modal panel over a draft of the state, with the number of
 * lines the draft would show on its Apply button ("Show 23 lines"), and Clear. Nothing
 * changes on the page until Apply; Escape or Close leaves the page as it was, and focus
 * goes back to the Filters button. */
export function FilterDialog({
  open,
  draft,
  onDraft,
  onApply,
  onClose,
  facets,
  prices,
  total,
  stock,
  opener,
}: {
  open: boolean;
  draft: ListingState;
  onDraft: (s: ListingState) => void;
  onApply: (s: ListingState) => void;
  onClose: () => void;
  facets: readonly FacetCounts[];
  prices: readonly PriceOption[];
  /** The lines the draft would show; null while not known (the index is loading, or a search). */
  total: number | null;
  stock: StockChoice;
  opener: RefObject<HTMLButtonElement | null>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);
  const lines = total === null ? 'Show lines' : `Show ${linesText(total)}`;
  return (
    <dialog
      ref={dialog}
      className="filter-dialog"
      aria-labelledby={titleId}
      onKeyDown={(e) => trapFocus(dialog.current, e)}
      onClose={() => {
        onClose();
        opener.current?.focus();
      }}
    >
      <div className="filter-dialog-head">
        <h2 id={titleId}>Filters</h2>
        <button type="button" className="link-button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {open && <FilterPanel facets={facets} prices={prices} state={draft} onChange={onDraft} stock={stock} />}
      <p className="sr-only" aria-live="polite">
        {open && total !== null ? `${total} ${total === 1 ? 'line matches' : 'lines match'}` : ''}
      </p>
      <div className="filter-dialog-actions">
        <button type="button" className="button button-quiet" onClick={() => onDraft(withoutFilters(draft))}>
          Clear
        </button>
        <button
          type="button"
          className="button"
          data-testid="filters-apply"
          onClick={() => {
            onApply(draft);
            dialog.current?.close();
          }}
        >
          {lines}
        </button>
      </div>
    </dialog>
  );
}
