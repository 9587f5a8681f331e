import Link from '@/components/app/link';
import { getShopConfig } from '@/lib/shop-config';
import { SnowFlakes } from './snow-flakes';

/** The shop's logo: its trading name with falling snow (SnowFlakes). */
export function SnowLogo() {
  // The trading name from shop.json; its last word is set smaller ("TradeShop Wholesale").
  const name = getShopConfig().business.tradingName;
  const cut = name.lastIndexOf(' ');
  return (
    <Link href="/" className="logo" aria-label={`${name}, home`}>
      <SnowFlakes />
      <span className="logo-text">
        {cut > 0 ? (
          <>
            {name.slice(0, cut)} <span className="logo-sub">{name.slice(cut + 1)}</span>
          </>
        ) : (
          name
        )}
      </span>
    </Link>
  );
}
