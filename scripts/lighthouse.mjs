// @ts-check
// Runs Lighthouse (mobile, the default form factor and throttling) with Debian's Chromium
// against pages of a running shop and answers each page's category scores and metrics.
// With runs > 1 every page is measured that many times (the pages taking turns, so a busy
// moment of the machine does not fall on one page only) and each figure is the median of
// its runs. Two modes: one warm Chromium the pages take turns in, or a fresh Chromium
// launched for every run (a first visit: no compiled code or HTTP cache from the runs
// before). Used by the bench, which reads each page against a blank Next page (the floor)
// measured in the same run: an absolute score says little about another machine, the
// ratio to the floor travels (issue 40).
//
//   node scripts/lighthouse.mjs [--runs N] [--fresh] URL ...
//   node scripts/lighthouse.mjs [--runs N] --floor FLOOR_URL URL ...   # both modes, tables
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { median } from './bench-pages.mjs';

const flags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The figures of one Lighthouse result (lhr). */
export function figuresOf(url, lhr) {
  const c = lhr.categories;
  const score = (k) => Math.round((c[k]?.score ?? 0) * 100);
  const failed = Object.entries(lhr.audits)
    .filter(
      ([, a]) =>
        a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable',
    )
    .map(([id]) => id);
  const metric = (id) => lhr.audits[id]?.numericValue ?? 0;
  return {
    url,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    failed,
    lcpMs: Math.round(metric('largest-contentful-paint')),
    tbtMs: Math.round(metric('total-blocking-time')),
    cls: Number(metric('cumulative-layout-shift').toFixed(3)),
  };
}

const NUMERIC = ['performance', 'accessibility', 'bestPractices', 'seo', 'lcpMs', 'tbtMs', 'cls'];

/** One page's figures over several runs: each numeric figure the median of its runs
 * (so the figures may come from different runs), `failed` the audits failed in the run
 * whose performance score is the median one, and `runs` every run's figures. */
export function medianFigures(runs) {
  if (runs.length === 0) throw new Error('no Lighthouse runs to take the median of');
  const out = { url: runs[0].url };
  for (const k of NUMERIC) {
    const m = median(runs.map((r) => r[k]));
    out[k] = k === 'cls' ? Number(m.toFixed(3)) : Math.round(m);
  }
  const byPerf = [...runs].sort((a, b) => a.performance - b.performance);
  out.failed = byPerf[Math.floor((byPerf.length - 1) / 2)].failed;
  out.runs = runs.map(({ failed, url, ...figures }) => figures);
  return out;
}

/** Issue 40's targets for a page against the floor (fresh Chromium per run, median of 3):
 * a performance score at most 3 points under the floor's, TBT at most 1.3x the floor's and
 * LCP at most 400 ms after the floor's. */
export const FLOOR_TARGETS = { scorePoints: 3, tbtTimes: 1.3, lcpOverMs: 400 };

/** A page's figures read against the floor's from the same run: TBT as a multiple of the
 * floor's (the floor's taken as at least 1 ms), LCP and the performance score as
 * differences, and whether each of issue 40's targets is met (judged on the unrounded
 * ratio; the table shows it to one decimal). */
export function versusFloor(page, floor, targets = FLOOR_TARGETS) {
  const tbtTimes = page.tbtMs / Math.max(1, floor.tbtMs);
  const lcpOverMs = page.lcpMs - floor.lcpMs;
  const scoreDiff = page.performance - floor.performance;
  const met = {
    score: scoreDiff >= -targets.scorePoints,
    tbt: tbtTimes <= targets.tbtTimes,
    lcp: lcpOverMs <= targets.lcpOverMs,
  };
  return { tbtTimes, lcpOverMs, scoreDiff, met, allMet: met.score && met.tbt && met.lcp };
}

/** The CPU model from `lscpu`'s output ("Model name:"), else the fallback (os.cpus()). */
export function cpuModelOf(lscpuText, fallback = '') {
  const m = /^\s*Model name:\s*(.+?)\s*$/m.exec(lscpuText ?? '');
  return m ? m[1] : fallback || 'unknown CPU';
}

/** This machine's CPU model and core count, printed beside each table. */
export function machineCPU() {
  let text = '';
  try {
    text = execFileSync('lscpu', { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
  } catch {
    // No lscpu (not Linux): os.cpus() names the model.
  }
  return { model: cpuModelOf(text, os.cpus()[0]?.model?.trim()), cores: os.availableParallelism() };
}

/** The 1-minute load average, to two decimals. */
export const loadNow = () => Number(os.loadavg()[0].toFixed(2));

const signed = (n, unit = '') => `${n > 0 ? '+' : n < 0 ? '\u2212' : '\u00b1'}${Math.abs(n).toLocaleString('en-GB')}${unit}`;

/** One table of a mode's results in Markdown: the floor first, then each page with its
 * figures, its ratios to the floor and the targets met or missed; the machine's CPU model
 * and the load at the start and the end of the mode's runs above it.
 * rows: [{ page, figures, floor?: true }], figures as medianFigures answers. */
export function floorTable({ title, rows, machine, load, targets = FLOOR_TARGETS }) {
  const floorRow = rows.find((r) => r.floor);
  if (!floorRow) throw new Error('a floor table needs the floor');
  const floor = floorRow.figures;
  const ms = (n) => `${n.toLocaleString('en-GB')} ms`;
  const lines = [
    `${title}: median of ${floor.runs?.length ?? 1}; ${machine.model}, ${machine.cores} cores; 1-minute load ${load.start} at the start, ${load.end} at the end`,
    '',
    '| page | performance | TBT | LCP | TBT \u00f7 floor | LCP \u2212 floor | score \u2212 floor | targets |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const f = r.figures;
    const runs = f.runs?.length > 1 ? ` (${f.runs.map((x) => x.performance).join(' / ')})` : '';
    if (r.floor) {
      lines.push(`| ${r.page} | ${f.performance}${runs} | ${ms(f.tbtMs)} | ${ms(f.lcpMs)} | 1.0x | \u00b10 ms | \u00b10 | (the floor) |`);
      continue;
    }
    const v = versusFloor(f, floor, targets);
    const missed = [
      v.met.score ? null : `score ${-(v.scoreDiff + targets.scorePoints)} points past \u2212${targets.scorePoints}`,
      v.met.tbt ? null : `TBT ${(v.tbtTimes - targets.tbtTimes).toFixed(1)}x past ${targets.tbtTimes}x`,
      v.met.lcp ? null : `LCP ${ms(v.lcpOverMs - targets.lcpOverMs)} past +${targets.lcpOverMs}`,
    ].filter(Boolean);
    lines.push(
      `| ${r.page} | ${f.performance}${runs} | ${ms(f.tbtMs)} | ${ms(f.lcpMs)} | ${v.tbtTimes.toFixed(1)}x | ${signed(v.lcpOverMs, ' ms')} | ${signed(v.scoreDiff)} | ${v.allMet ? 'met' : `missed: ${missed.join(', ')}`} |`,
    );
  }
  return lines.join('\n');
}

/** The hash that asks lighthouseScores to block every script of the page. */
export const NO_SCRIPT = '#no-script';

/** Scores (0-100) of performance, accessibility, best practices and SEO, LCP and TBT in ms
 * and CLS for each URL, in the order given: the median of `runs` runs of each. With fresh,
 * every run of every page has a Chromium of its own (launched, measured once, killed),
 * else one Chromium serves all the runs, the pages taking turns. */
export async function lighthouseScores(urls, { runs = 1, fresh = false } = {}) {
  // Loaded here, not at the top, so the tests of the pure helpers above do not load it.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const launch = () => chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: flags });
  const measure = async (chrome, url) => {
    // A URL ending in #no-script is measured with every script blocked: the page's HTML and
    // CSS alone (issue 40's experiment of what a page costs before any of its JavaScript).
    const blockedUrlPatterns = url.endsWith(NO_SCRIPT) ? ['*.js'] : [];
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', blockedUrlPatterns });
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    return figuresOf(url, result.lhr);
  };
  const results = new Map(urls.map((u) => [u, []]));
  const warm = fresh ? null : await launch();
  try {
    for (let i = 0; i < runs; i++) {
      for (const url of urls) {
        if (warm) {
          results.get(url).push(await measure(warm, url));
          continue;
        }
        const chrome = await launch();
        try {
          results.get(url).push(await measure(chrome, url));
        } finally {
          await chrome.kill();
        }
      }
    }
    return urls.map((u) => medianFigures(results.get(u)));
  } finally {
    await warm?.kill();
  }
}

/** The two modes of issue 40, the warm one first. */
export const MODES = [
  { name: 'one warm Chromium, pages taking turns', short: 'warm', fresh: false },
  { name: 'a fresh Chromium per run (a first visit)', short: 'fresh', fresh: true },
];

/** Every page beside the floor in one run, in both modes: pages [{ page, url, floor? }]
 * (one of them the floor). Answers per mode { mode, rows: [{ ...page, figures }], load,
 * table } with the machine's CPU and the 1-minute load at the mode's start and end. */
export async function besideTheFloor(pages, { runs = 3 } = {}) {
  const machine = machineCPU();
  const out = [];
  for (const mode of MODES) {
    const start = loadNow();
    const results = await lighthouseScores(
      pages.map((p) => p.url),
      { runs, fresh: mode.fresh },
    );
    const load = { start, end: loadNow() };
    const rows = pages.map((p, i) => ({ ...p, figures: results[i] }));
    out.push({ mode, rows, load, machine, table: floorTable({ title: `Lighthouse mobile, ${mode.name}`, rows, machine, load }) });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args.splice(at, 2)[1]) : 1;
  const fl = args.indexOf('--floor');
  if (fl >= 0) {
    // --floor FLOOR_URL URL ...: both modes, each page beside the floor.
    const [, floorUrl] = args.splice(fl, 2);
    const pages = [{ page: 'blank Next page (the floor)', url: floorUrl, floor: true }, ...args.map((u) => ({ page: new URL(u).pathname, url: u }))];
    for (const m of await besideTheFloor(pages, { runs })) console.log(`\n${m.table}`);
  } else {
    const f = args.indexOf('--fresh');
    if (f >= 0) args.splice(f, 1);
    lighthouseScores(args, { runs, fresh: f >= 0 }).then((r) => console.log(JSON.stringify(r, null, 1)));
  }
}
