// @ts-check
// The figures the bench takes from Lighthouse results (scripts/lighthouse.mjs), without
// running Lighthouse. Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import test from 'node:test';
import { figuresOf, medianFigures } from './lighthouse.mjs';

const lhr = (perf, lcp, tbt, cls, failing = []) => ({
  categories: { performance: { score: perf / 100 }, accessibility: { score: 1 }, 'best-practices': { score: 0.96 }, seo: { score: 1 } },
  audits: {
    'largest-contentful-paint': { numericValue: lcp, score: 0.9, scoreDisplayMode: 'numeric' },
    'total-blocking-time': { numericValue: tbt, score: 0.5, scoreDisplayMode: 'numeric' },
    'cumulative-layout-shift': { numericValue: cls, score: 1, scoreDisplayMode: 'numeric' },
    'unused-javascript': { score: 0.5, scoreDisplayMode: 'metricSavings' },
    'screenshot-thumbnails': { score: null, scoreDisplayMode: 'informative' },
    ...Object.fromEntries(failing.map((id) => [id, { score: 0, scoreDisplayMode: 'binary' }])),
  },
});

test('the figures of one Lighthouse result', () => {
  const f = figuresOf('http://x/', lhr(81, 2412.6, 686.4, 0.0071));
  assert.deepEqual(f, {
    url: 'http://x/',
    performance: 81,
    accessibility: 100,
    bestPractices: 96,
    seo: 100,
    failed: ['largest-contentful-paint', 'total-blocking-time', 'unused-javascript'],
    lcpMs: 2413,
    tbtMs: 686,
    cls: 0.007,
  });
});

test('the median of runs, figure by figure, and the failed audits of the median run', () => {
  const runs = [
    figuresOf('http://x/', lhr(77, 3200, 577, 0.01, ['a'])),
    figuresOf('http://x/', lhr(93, 2000, 248, 0, ['b'])),
    figuresOf('http://x/', lhr(81, 2900, 700, 0.007, ['c'])),
  ];
  const m = medianFigures(runs);
  assert.equal(m.url, 'http://x/');
  assert.equal(m.performance, 81);
  assert.equal(m.lcpMs, 2900);
  assert.equal(m.tbtMs, 577);
  assert.equal(m.cls, 0.007);
  assert.ok(m.failed.includes('c'), 'the run whose performance is the median (81)');
  assert.deepEqual(
    m.runs.map((r) => r.performance),
    [77, 93, 81],
  );
  assert.equal(medianFigures(runs.slice(0, 1)).performance, 77, 'one run is its own median');
  assert.throws(() => medianFigures([]), /no Lighthouse runs/);
});
