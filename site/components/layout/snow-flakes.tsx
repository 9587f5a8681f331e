'use client';

// 50 snow circles, placed deterministically so every build renders the same logo.
const flakes = Array.from({ length: 50 }, (_, i) => {
  const r = (n: number) => ((i * 9301 + n * 49297) % 233280) / 233280;
  return { x: Math.round(r(1) * 200), y: 2 + Math.round(r(4) * 40), size: 1 + Math.round(r(2) * 2), speed: ['a', 'b', 'c'][i % 3], delay: (r(3) * 4).toFixed(2) };
});

/** The logo's falling snow: 50 circles, each pausing 1.5 s between falls (the pause is
 * built into the keyframes). Each flake rests at its own height, which is the still
 * picture shown under prefers-reduced-motion. A client component without props, so the
 * 50 circles are in the HTML and the shared script, not in every page's RSC data. */
export function SnowFlakes() {
  return (
    <svg className="snow" viewBox="0 0 200 44" width="200" height="44" aria-hidden="true" focusable="false">
      {flakes.map((f, i) => (
        <circle key={i} cx={f.x} cy={f.y} r={f.size} className={`flake flake-${f.speed}`} style={{ animationDelay: `${f.delay}s` }} />
      ))}
    </svg>
  );
}
