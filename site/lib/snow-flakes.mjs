// The logo's 50 snow circles, placed deterministically so every build renders the same
// logo. Plain JavaScript so the bench's Hugo site (scripts/bench-hugo.mjs) draws the same
// logo as components/layout/snow-flakes.tsx.
export const SNOW_FLAKES = Array.from({ length: 50 }, (_, i) => {
  const r = (n) => ((i * 9301 + n * 49297) % 233280) / 233280;
  return {
    x: Math.round(r(1) * 200),
    y: 2 + Math.round(r(4) * 40),
    size: 1 + Math.round(r(2) * 2),
    speed: ['a', 'b', 'c'][i % 3],
    delay: (r(3) * 4).toFixed(2),
  };
});
