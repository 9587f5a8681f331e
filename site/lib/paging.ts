/** Products on one page of a category grid. */
export const CATEGORY_PAGE_SIZE = 48;

/** The page numbers a pager shows: first, last, and two either side of the current,
 * with null where numbers are skipped. */
export function pagerItems(current: number, pages: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - current) <= 2) out.push(n);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

/** The page asked for in ?page=, clamped to the pages there are. */
export function pageFromSearch(search: string, pages: number): number {
  const n = Number(new URLSearchParams(search).get('page') ?? '1');
  return Number.isInteger(n) ? Math.min(Math.max(n, 1), Math.max(pages, 1)) : 1;
}
