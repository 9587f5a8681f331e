/** What a listing shows when its filters leave nothing: says so and offers to clear them. */
export function ListingEmpty({ onClear }: { onClear: () => void }) {
  return (
    <div className="listing-empty">
      <p>No lines match these filters.</p>
      <button type="button" className="button" onClick={onClear}>
        Clear filters
      </button>
    </div>
  );
}
