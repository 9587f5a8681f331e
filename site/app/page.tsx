import Link from 'next/link';
import { getHome } from '@/lib/catalogue';

export default function HomePage() {
  const home = getHome();
  return (
    <>
      <h1>Wholesale cards, wrap and gifts for your shop</h1>
      <p className="lead">
        {home.products.toLocaleString('en-GB')} lines in trade packs across our outlet ranges. Prices are ex VAT.
      </p>
      <ul className="ranges" aria-label="Outlet ranges">
        {home.ranges.map((r) => (
          <li key={r.urlText}>
            <h2>
              <Link href={r.path}>{r.name}</Link>
            </h2>
            <p>{r.description}</p>
            <p className="muted">{r.products.toLocaleString('en-GB')} lines</p>
          </li>
        ))}
      </ul>
    </>
  );
}
