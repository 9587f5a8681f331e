import type { MouseEvent } from 'react';
import Link from '@/components/app/link';
import { pagerItems } from '@/lib/paging';

/** Page links: Previous, first, last, two either side of the current page, Next. */
export function Pager({
  page,
  pages,
  href,
  label,
  onPick,
}: {
  page: number;
  pages: number;
  href: (n: number) => string;
  label: string;
  /** Told of a click on a page's link; it may prevent the link's navigation and show the page itself. */
  onPick?: (n: number, e: MouseEvent<HTMLAnchorElement>) => void;
}) {
  if (pages <= 1) return null;
  const link = (n: number, text: string, aria?: string) => (
    <Link href={href(n)} onClick={(e: MouseEvent<HTMLAnchorElement>) => onPick?.(n, e)} {...(aria && { 'aria-label': aria })}>
      {text}
    </Link>
  );
  return (
    <nav className="pager" aria-label={label}>
      <ul>
        {page > 1 && <li>{link(page - 1, 'Previous')}</li>}
        {pagerItems(page, pages).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>{n === page ? <span aria-current="page">{n}</span> : link(n, String(n), `Page ${n}`)}</li>
          ),
        )}
        {page < pages && <li>{link(page + 1, 'Next')}</li>}
      </ul>
    </nav>
  );
}
