// @ts-check
// Runs Lighthouse (mobile, the default form factor and throttling) with Debian's Chromium
// against pages of a running shop and answers each page's category scores and metrics.
// With runs > 1 every page is measured that many times (the pages taking turns, so a busy
// moment of the machine does not fall on one page only) and each figure is the median of
// its runs. Used by the bench.
//
//   node scripts/lighthouse.mjs [--runs N] URL ...
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

/** Scores (0-100) of performance, accessibility, best practices and SEO, LCP and TBT in ms
 * and CLS for each URL, in the order given: the median of `runs` runs of each. */
export async function lighthouseScores(urls, { runs = 1 } = {}) {
  // Loaded here, not at the top, so the tests of the pure helpers above do not load it.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: flags });
  try {
    const results = new Map(urls.map((u) => [u, []]));
    for (let i = 0; i < runs; i++) {
      for (const url of urls) {
        const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
        if (!result) throw new Error(`lighthouse gave no result for ${url}`);
        results.get(url).push(figuresOf(url, result.lhr));
      }
    }
    return urls.map((u) => medianFigures(results.get(u)));
  } finally {
    await chrome.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args.splice(at, 2)[1]) : 1;
  lighthouseScores(args, { runs }).then((r) => console.log(JSON.stringify(r, null, 1)));
}
