import type { Metadata } from 'next';
import Link from '@/components/app/link';
import { JsonLd } from '@/components/seo/json-ld';
import { getHome } from '@/lib/catalogue';
import { organizationLd, pageMetadata, siteName } from '@/lib/seo';
import { getShopConfig } from '@/lib/shop-config';

export const metadata: Metadata = pageMetadata({
  title: `${siteName}: greeting cards, gift wrap and giftware for the trade`,
  description: 'Wholesale greeting cards, Christmas, gift wrap, partyware, balloons, giftware and stationery in trade packs, at trade prices ex VAT.',
  path: '/',
});

export default function HomePage() {
  const home = getHome();
  return (
    <>
      <JsonLd data={organizationLd(getShopConfig().contact)} />
      <h1>Wholesale cards, wrap and gifts for your shop</h1>
      <p className="lead">{home.products.toLocaleString('en-GB')} lines in trade packs across our outlet ranges. Prices are ex VAT.</p>
      <ul className="ranges" aria-label="Outlet ranges">
        {home.ranges.map((r) => (
          <li key={r.url_text}>
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
