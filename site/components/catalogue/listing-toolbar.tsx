'use client';
import { useId, type Ref } from 'react';
import { SORT_LABELS } from '@/lib/listing';

/** Above a listing's grid: how many lines it shows (read out as it changes), the Sort
 * select, and on phones the Filters button with the number of filters chosen. */
export function ListingToolbar({
  countText,
  sorts,
  sort,
  onSort,
  filterCount,
  onOpenFilters,
  openerRef,
}: {
  countText: string;
  sorts: readonly string[];
  /** The sort shown; sorts[0] for the default. */
  sort: string;
  onSort: (sort: string) => void;
  filterCount: number;
  onOpenFilters: () => void;
  openerRef: Ref<HTMLButtonElement>;
}) {
  const id = useId();
  return (
    <div className="listing-toolbar">
      <p className="listing-count" role="status" data-testid="listing-count" tabIndex={-1}>
        {countText}
      </p>
      <div className="listing-sort">
        <label htmlFor={id}>Sort by</label>
        <select id={id} value={sort} onChange={(e) => onSort(e.target.value)}>
          {sorts.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s] ?? s}
            </option>
          ))}
        </select>
      </div>
      <button ref={openerRef} type="button" className="button filters-button" aria-haspopup="dialog" onClick={onOpenFilters}>
        Filters{filterCount > 0 && ` (${filterCount})`}
      </button>
    </div>
  );
}
