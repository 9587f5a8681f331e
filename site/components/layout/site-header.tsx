import Link from 'next/link';
import type { RangeLink } from '@/lib/types';

/** The shop header: the logo and the outlet range links. The full menu, search and
 * account menu come with the site shell. */
export function SiteHeader({ ranges }: { ranges: RangeLink[] }) {
  return (
    <header className="site-header">
      <Link href="/" className="logo">
        TradeShop <span className="muted">Wholesale</span>
      </Link>
      <nav aria-label="Outlet ranges">
        <ul className="nav-list">
          {ranges.map((r) => (
            <li key={r.urlText}>
              <Link href={r.path}>{r.name}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
