'use client';

/** What a listing shows when its filters leave nothing: says so and offers to clear them.
 * The button goes with the empty state, so focus moves to the listing's count, which then
 * says how many lines there are. */
export function ListingEmpty({ onClear }: { onClear: () => void }) {
  return (
    <div className="listing-empty">
      <p>No lines match these filters.</p>
      <button
        type="button"
        className="button"
        onClick={(e) => {
          const count = e.currentTarget.closest('.listing')?.querySelector<HTMLElement>('.listing-count');
          onClear();
          requestAnimationFrame(() => count?.focus());
        }}
      >
        Clear filters
      </button>
    </div>
  );
}
