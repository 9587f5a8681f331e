// Runs Lighthouse (mobile, the default form factor) with Debian's Chromium against
// pages of a running shop and answers each page's category scores. Used by the bench.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** Scores (0-100) of performance, accessibility, best practices and SEO for each URL. */
export async function lighthouseScores(urls) {
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: flags });
  try {
    const out = [];
    for (const url of urls) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
      const c = result.lhr.categories;
      const score = (k) => Math.round((c[k]?.score ?? 0) * 100);
      const failed = Object.values(result.lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
        .map((a) => a.id);
      out.push({ url, performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'), seo: score('seo'), failed,
        lcpMs: Math.round(result.lhr.audits['largest-contentful-paint']?.numericValue ?? 0), tbtMs: Math.round(result.lhr.audits['total-blocking-time']?.numericValue ?? 0) });
    }
    return out;
  } finally {
    await chrome.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  lighthouseScores(process.argv.slice(2)).then((r) => console.log(JSON.stringify(r, null, 1)));
}
