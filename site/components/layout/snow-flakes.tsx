'use client';
import { keepServerHTML, useKeepServerHTML } from '@/components/app/first-hydration';
import { SNOW_FLAKES } from '@/lib/snow-flakes.mjs';

/** The logo's falling snow: 50 circles, each pausing 1.5 s between falls (the pause is
 * built into the keyframes). Each flake rests at its own height, which is the still
 * picture shown under prefers-reduced-motion. A client component without props, so the
 * 50 circles are in the HTML and the shared script, not in every page's RSC data. */
export function SnowFlakes() {
  // Nothing in them needs React: in the page's first hydration the circles stay the
  // server's, unhydrated (components/app/first-hydration.ts); the header is not rendered again.
  const keep = useKeepServerHTML(true);
  if (keep) return <svg className="snow" viewBox="0 0 200 44" width="200" height="44" aria-hidden="true" focusable="false" {...keepServerHTML} />;
  return (
    <svg className="snow" viewBox="0 0 200 44" width="200" height="44" aria-hidden="true" focusable="false">
      {SNOW_FLAKES.map((f, i) => (
        <circle key={i} cx={f.x} cy={f.y} r={f.size} className={`flake flake-${f.speed}`} style={{ animationDelay: `${f.delay}s` }} />
      ))}
    </svg>
  );
}
