// @ts-check
// The figures the bench takes from Lighthouse results (scripts/lighthouse.mjs), without
// running Lighthouse. Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import test from 'node:test';
import { cpuModelOf, figuresOf, floorTable, medianFigures, versusFloor } from './lighthouse.mjs';

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

const page = (performance, tbtMs, lcpMs) => ({ performance, tbtMs, lcpMs });

test('a page against the floor: TBT times, LCP and score differences, targets met or missed', () => {
  const floor = page(93, 292, 1424);
  const cat = versusFloor(page(84, 578, 2011), floor);
  assert.equal(cat.tbtTimes.toFixed(1), '2.0');
  assert.equal(cat.lcpOverMs, 587);
  assert.equal(cat.scoreDiff, -9);
  assert.deepEqual(cat.met, { score: false, tbt: false, lcp: false });
  assert.equal(cat.allMet, false);
  const near = versusFloor(page(90, 379, 1824), floor);
  assert.deepEqual(near.met, { score: true, tbt: true, lcp: true }, 'each target met at its edge: -3 points, 1.298x, +400 ms');
  assert.equal(near.allMet, true);
  assert.equal(versusFloor(page(90, 381, 1825), floor).met.tbt, false, '1.305x is past 1.3x though it shows as 1.3x');
  assert.equal(versusFloor(page(99, 20, 900), page(99, 0, 900)).tbtTimes, 20, 'a floor TBT of 0 counts as 1 ms');
});

test('the CPU model from lscpu, else the fallback', () => {
  assert.equal(cpuModelOf('Architecture:  x86_64\nModel name:                              AMD EPYC 7B13\nThread(s) per core:  2\n'), 'AMD EPYC 7B13');
  assert.equal(cpuModelOf('', 'Apple M2'), 'Apple M2');
  assert.equal(cpuModelOf(undefined), 'unknown CPU');
});

test('a floor table: the machine and load above, ratios and targets per page', () => {
  const figs = (performance, tbtMs, lcpMs, runs = [performance]) => ({ ...page(performance, tbtMs, lcpMs), runs: runs.map((p) => ({ performance: p })) });
  const t = floorTable({
    title: 'fresh Chromium per run',
    machine: { model: 'AMD EPYC', cores: 2 },
    load: { start: 1.3, end: 2.05 },
    rows: [
      { page: 'blank Next page (the floor)', figures: figs(93, 292, 1424, [92, 93, 95]), floor: true },
      { page: 'home', figures: figs(92, 300, 1500, [92, 92, 93]) },
      { page: 'category', figures: figs(84, 578, 2011, [80, 84, 85]) },
    ],
  });
  const lines = t.split('\n');
  assert.equal(lines[0], 'fresh Chromium per run: median of 3; AMD EPYC, 2 cores; 1-minute load 1.3 at the start, 2.05 at the end');
  assert.match(lines[4], /^\| blank Next page \(the floor\) \| 93 \(92 \/ 93 \/ 95\) \| 292 ms \| 1,424 ms \| 1.0x \| /);
  assert.equal(lines[5], '| home | 92 (92 / 92 / 93) | 300 ms | 1,500 ms | 1.0x | +76 ms | \u22121 | met |');
  assert.equal(
    lines[6],
    '| category | 84 (80 / 84 / 85) | 578 ms | 2,011 ms | 2.0x | +587 ms | \u22129 | missed: score 6 points past \u22123, TBT 0.7x past 1.3x, LCP 187 ms past +400 |',
  );
  assert.throws(() => floorTable({ title: 'x', machine: { model: 'x', cores: 1 }, load: { start: 0, end: 0 }, rows: [] }), /needs the floor/);
});
