import Link from '@/components/app/link';
import { getShopConfig } from '@/lib/shop-config';

// 50 snow circles, placed deterministically so every build renders the same logo.
const flakes = Array.from({ length: 50 }, (_, i) => {
  const r = (n: number) => ((i * 9301 + n * 49297) % 233280) / 233280;
  return { x: Math.round(r(1) * 200), y: 2 + Math.round(r(4) * 40), size: 1 + Math.round(r(2) * 2), speed: ['a', 'b', 'c'][i % 3], delay: (r(3) * 4).toFixed(2) };
});

/** The shop's logo with falling snow: 50 circles, each pausing 1.5 s between falls
 * (the pause is built into the keyframes). Each flake rests at its own height, which
 * is the still picture shown under prefers-reduced-motion. */
export function SnowLogo() {
  // The trading name from shop.json; its last word is set smaller ("TradeShop Wholesale").
  const name = getShopConfig().business.tradingName;
  const cut = name.lastIndexOf(' ');
  return (
    <Link href="/" className="logo" aria-label={`${name}, home`}>
      <svg className="snow" viewBox="0 0 200 44" width="200" height="44" aria-hidden="true" focusable="false">
        {flakes.map((f, i) => (
          <circle key={i} cx={f.x} cy={f.y} r={f.size} className={`flake flake-${f.speed}`} style={{ animationDelay: `${f.delay}s` }} />
        ))}
      </svg>
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
