// @ts-check
// The bench's yardstick for the site build (issue 19): the same catalogue pages built by
// Hugo (Debian's `hugo`), from the same snapshot, with the same markup and no JavaScript.
//
// writeHugoSite makes a Hugo site from builds/snapshot: one content file per catalogue
// page (home, ranges, categories, products) with the page's _payload.json as JSON front
// matter, the header menu from catalogue.json, the shop's details from shop.json, the
// site's globals.css, and the templates in scripts/bench-hugo/layouts (the same head,
// header menu, footer, breadcrumbs and JSON-LD; category pages with the first 48 cards and
// the pager, range pages with their categories and featured cards, product pages with the
// detail block and the related cards). Making it is not timed; `rm -rf public && hugo` is.
//
//   node scripts/bench-hugo.mjs [SNAPSHOT_DIR] [SITE_DIR]   # make the site, time 3 builds
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { aptInstall, capture, root, run, say } from './lib.mjs';
import { listRelative } from './export-manifest.mjs';
import { childCpuSeconds, median } from './bench-pages.mjs';
import { SNOW_FLAKES } from '../site/lib/snow-flakes.mjs';

export const layoutsDir = path.join(root, 'scripts', 'bench-hugo', 'layouts');

/** The help links of the header menu and the footer: the site's own list. */
export const HELP_LINKS = JSON.parse(readFileSync(path.join(root, 'site', 'lib', 'help-links.json'), 'utf8'));

/** The "No picture" placeholder's data: URL (site/lib/product-image.ts). */
const noPictureSrc = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160"><rect width="160" height="160" fill="#f3f5f8"/><g fill="none" stroke="#9aa3b2" stroke-width="4" stroke-linejoin="round" stroke-linecap="round"><path d="M48 62 80 46l32 16v40l-32 16-32-16z"/><path d="M48 62l32 16 32-16M80 78v40"/><path d="M64 54l32 16v12"/></g></svg>')}`;

/** A copy of a JSON value with every object key in lower case. Hugo lower-cases the keys
 * of front matter maps but not of maps inside lists, so the templates would otherwise need
 * .unitprice in one place and .unitPrice in another. */
export function lowerKeys(v) {
  if (Array.isArray(v)) return v.map(lowerKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), lowerKeys(x)]));
  return v;
}

/** The content file of one catalogue page: its payload (keys in lower case) as JSON front
 * matter under `shop`, the page's own path as its URL, and the template of its kind. Home
 * is Hugo's home page (content/_index.md, layouts/index.html). */
export function contentFile(pagePath, payload) {
  const title = { home: 'Home', range: payload.range?.name, category: payload.category?.name, product: payload.product?.name }[payload.kind];
  if (!title) throw new Error(`page ${pagePath}: no template for a payload of kind ${payload.kind}`);
  const shop = lowerKeys(payload);
  const front = payload.kind === 'home' ? { title, shop } : { title, url: pagePath, layout: payload.kind, shop };
  return `${JSON.stringify(front)}\n`;
}

/** Where a page's content file goes, relative to content/: the page path with / as -. */
export function contentName(pagePath) {
  if (pagePath === '/') return '_index.md';
  const name = pagePath.replace(/^\/|\/$/g, '').replace(/\//g, '-');
  if (!/^[\w.-]+$/.test(name)) throw new Error(`page path ${pagePath} does not make a plain file name`);
  return `${name}.md`;
}

/** Writes the Hugo site for the snapshot into dir (emptied first); answers its page count. */
export function writeHugoSite({
  snapshotDir,
  dir,
  siteUrl,
  shop,
  cssFile = path.join(root, 'site', 'app', 'globals.css'),
  iconFile = path.join(root, 'site', 'app', 'icon.svg'),
}) {
  rmSync(dir, { recursive: true, force: true });
  for (const sub of ['content', 'data', 'assets', 'static']) mkdirSync(path.join(dir, sub), { recursive: true });
  const catalogue = JSON.parse(readFileSync(path.join(snapshotDir, 'catalogue.json'), 'utf8'));
  writeFileSync(
    path.join(dir, 'hugo.toml'),
    [
      `baseURL = ${JSON.stringify(`${siteUrl}/`)}`,
      `title = ${JSON.stringify(shop.business.tradingName)}`,
      'languageCode = "en-GB"',
      // Only the pages the shop has: no lists, feeds, sitemap or 404 page of Hugo's own.
      'disableKinds = ["section", "taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]',
      '[params]',
      `siteUrl = ${JSON.stringify(siteUrl)}`,
      '',
    ].join('\n'),
  );
  const name = shop.business.tradingName;
  const cut = name.lastIndexOf(' ');
  writeFileSync(path.join(dir, 'data', 'menu.json'), JSON.stringify(catalogue.menu));
  writeFileSync(
    path.join(dir, 'data', 'shop.json'),
    JSON.stringify({
      business: shop.business,
      contact: shop.contact,
      minimumOrderPence: shop.minimumOrderPence,
      freeDeliveryThresholdPence: shop.freeDeliveryThresholdPence,
      logoName: cut > 0 ? name.slice(0, cut) : name,
      logoSub: cut > 0 ? name.slice(cut + 1) : '',
      flakes: SNOW_FLAKES,
      helpLinks: HELP_LINKS,
      noPictureSrc,
      feedbackUrl: 'https://survey.tradeshop.example/feedback',
    }),
  );
  cpSync(cssFile, path.join(dir, 'assets', 'globals.css'));
  cpSync(iconFile, path.join(dir, 'static', 'icon.svg'));
  cpSync(layoutsDir, path.join(dir, 'layouts'), { recursive: true });
  for (const page of catalogue.pages) {
    const payload = JSON.parse(readFileSync(path.join(snapshotDir, 'pages', page, '_payload.json'), 'utf8'));
    writeFileSync(path.join(dir, 'content', contentName(page)), contentFile(page, payload));
  }
  return catalogue.pages.length;
}

/** Hugo's version line, installing Debian's `hugo` through apt-get where there is none;
 * null (having said why) when it cannot be had. */
export async function ensureHugo() {
  const version = () =>
    capture('hugo', ['version']).then(
      (v) => v.trim(),
      () => null,
    );
  let v = await version();
  if (v) return v;
  try {
    await aptInstall(['hugo'], "for the bench's Hugo comparison, as there is no hugo on PATH");
  } catch (err) {
    say('bench', `skipping the Hugo comparison: apt-get could not install hugo (${err.message})`);
    return null;
  }
  v = await version();
  if (!v) say('bench', 'skipping the Hugo comparison: hugo is still not on PATH after apt-get');
  return v;
}

/** Times `rm -rf public && hugo` in dir `runs` times: { seconds: [..], cpuSeconds: [..],
 * median, cpuMedian, htmlFiles, bytes, files } (the output of the last run). */
export async function timeHugo(dir, { runs = 3 } = {}) {
  const seconds = [];
  const cpuSeconds = [];
  for (let i = 0; i < runs; i++) {
    const cpu0 = childCpuSeconds();
    const t0 = performance.now();
    await run('sh', ['-c', 'rm -rf public && exec hugo --quiet'], { cwd: dir });
    seconds.push((performance.now() - t0) / 1000);
    const cpu1 = childCpuSeconds();
    if (cpu0 !== null && cpu1 !== null) cpuSeconds.push(cpu1 - cpu0);
  }
  const publicDir = path.join(dir, 'public');
  const rels = listRelative(publicDir);
  let bytes = 0;
  for (const rel of rels) bytes += readFileSync(path.join(publicDir, rel)).length;
  return {
    seconds,
    cpuSeconds,
    median: median(seconds),
    cpuMedian: cpuSeconds.length ? median(cpuSeconds) : null,
    htmlFiles: rels.filter((r) => r.endsWith('.html')).length,
    files: rels.length,
    bytes,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [snapshotDir = path.join(root, 'builds', 'snapshot'), dir = path.join(root, '.bench', 'hugo')] = process.argv.slice(2);
  const { readShopConfig, buildSettings } = await import('./build.mjs');
  if (!(await ensureHugo())) process.exit(1);
  const pages = writeHugoSite({ snapshotDir, dir, siteUrl: buildSettings(process.env).siteUrl, shop: readShopConfig() });
  say('hugo', `${pages} pages written to ${dir}`);
  const r = await timeHugo(dir);
  console.log(JSON.stringify({ pages, ...r, pagesPerSecond: r.htmlFiles / r.median }));
}
