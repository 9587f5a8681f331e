/** Previous and Next under a back-office list, and which page it is. */
export function ListPager({
  label,
  pageNumber,
  hasPrevious,
  hasNext,
  busy,
  goPrevious,
  goNext,
}: {
  label: string;
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
  busy: boolean;
  goPrevious: () => void;
  goNext: () => void;
}) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="admin-pager" aria-label={label}>
      <button type="button" className="button" onClick={goPrevious} disabled={!hasPrevious || busy}>
        Previous
      </button>
      <span>Page {pageNumber}</span>
      <button type="button" className="button" onClick={goNext} disabled={!hasNext || busy}>
        Next
      </button>
    </nav>
  );
}
