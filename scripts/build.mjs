// @ts-check
// Builds a release of the site: snapshot the catalogue from DynamoDB, `next build` the
// static export rendered from that snapshot, put each page's _payload.json beside its
// HTML, then write builds/meta/{buildId}.json (route rules) and, last,
// builds/latest.json. Needs DynamoDB reachable (DYNAMODB_ENDPOINT locally).
//
//   node scripts/build.mjs            # uses .local/bin/snapshot (built if missing)
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { binDir, buildGoCommands, root, run, say } from './lib.mjs';
import { latestBody, latestPath, listRelative, metaPath, sha256 } from './export-manifest.mjs';
import { carriedDigest, pageDir, planPages, siteInputs, withEveryRoute } from './partial.mjs';
import { parseShop } from '../site/lib/shop-validate.mjs';

export const snapshotDir = path.join(root, 'builds', 'snapshot');
export const exportDir = path.join(root, 'site', 'out');

/** A build id that sorts by time and never repeats: 20261121T044512Z-3f9a1c. */
export function newBuildId(now = new Date()) {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** What the site's code is built from, besides site/'s sources: the locked package
 * versions and the shop's constants that next.config.ts inlines. */
const codeInputs = [path.join(root, 'package-lock.json'), path.join(root, 'functions', 'config', 'shop.json')];
const notCode = new Set(['node_modules', '.next', 'out', 'e2e', 'tsconfig.tsbuildinfo', 'next-env.d.ts']);

/** Every source file under dir, in name order, outputs and tests left out.
 * @param {string} dir
 * @param {string[]} [out]
 * @returns {string[]} */
function siteSources(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (notCode.has(e.name) || /\.test\.tsx?$/.test(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) siteSources(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The version of the site's code: a hash of site/'s sources (tests and outputs left out),
 * the lock file, shop.json and the build's NEXT_PUBLIC_* settings and SITE_VERSION. It is
 * Next's build id and what a page names (<html data-code>); the release id is not in any
 * page, so two builds of the same code and data write byte-identical pages and publishing
 * uploads only the pages whose data changed. A change to any of these inputs changes it,
 * and a tab on the older code then loads its next page in full (Next compares build ids). */
export function codeVersion(env = process.env, siteDir = path.join(root, 'site'), inputs = codeInputs) {
  const h = createHash('sha256');
  for (const file of [...siteSources(siteDir), ...inputs]) {
    h.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  const settings = Object.keys(env)
    .filter((k) => k.startsWith('NEXT_PUBLIC_') || k === 'SITE_VERSION')
    .sort();
  for (const k of settings) h.update(`${k}=${env[k]}\0`);
  return `code-${h.digest('hex').slice(0, 16)}`;
}

const statuses = new Set([301, 302, 307, 308]);

/** Most URLs one sitemap file may list (sitemaps.org). */
export const SITEMAP_SHARD_SIZE = 50_000;

const xmlEscape = (/** @type {string} */ s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Writes sitemap.xml (an index) and sitemaps/sitemap-N.xml shards listing every page
 * path once; answers the number of shards.
 * @param {string} outDir
 * @param {string} siteUrl
 * @param {Iterable<string>} pagePaths
 * @param {string} lastmod
 * @returns {number} */
export function writeSitemaps(outDir, siteUrl, pagePaths, lastmod, shardSize = SITEMAP_SHARD_SIZE) {
  const unique = [...new Set(pagePaths)].sort();
  const shards = [];
  for (let i = 0; i < unique.length; i += shardSize) shards.push(unique.slice(i, i + shardSize));
  mkdirSync(path.join(outDir, 'sitemaps'), { recursive: true });
  shards.forEach((paths, i) => {
    const urls = paths.map((p) => `<url><loc>${xmlEscape(siteUrl + p)}</loc><lastmod>${lastmod}</lastmod></url>`).join('\n');
    writeFileSync(
      path.join(outDir, 'sitemaps', `sitemap-${i + 1}.xml`),
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
    );
  });
  const entries = shards
    .map((_, i) => `<sitemap><loc>${xmlEscape(`${siteUrl}/sitemaps/sitemap-${i + 1}.xml`)}</loc><lastmod>${lastmod}</lastmod></sitemap>`)
    .join('\n');
  writeFileSync(
    path.join(outDir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`,
  );
  return shards.length;
}

/** The RSC files Next writes beside each page that the shop's client never asks for:
 * `__next._full.txt` (byte-identical to index.txt, read by no client code) and the
 * per-segment prefetch files (`__next._tree.txt`, `__next._index.txt`,
 * `__next.…__PAGE__.txt`), which only Next's own link prefetching fetches, switched off
 * in components/app/link.tsx. A navigation fetches the page's index.txt. */
export const unusedRscFile = /^__next\..*\.txt$/;

/** Removes every unusedRscFile under outDir; answers how many files and bytes went.
 * @param {string} outDir */
export function pruneRscFiles(outDir) {
  let files = 0;
  for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !unusedRscFile.test(entry.name)) continue;
    unlinkSync(path.join(entry.parentPath, entry.name));
    files++;
  }
  return files;
}

/** Checks the route-rule source and answers its redirects; throws with every problem.
 * @param {any} doc builds/redirects.json as parsed: its shape is what is checked
 * @param {Set<string>} [pagePaths]
 * @returns {import('./export-manifest.mjs').Redirect[]} */
export function validateRedirects(doc, pagePaths = new Set()) {
  /** @type {string[]} */
  const problems = [];
  /** @type {any[]} */
  const list = Array.isArray(doc?.redirects) ? doc.redirects : (problems.push('redirects must be a list'), []);
  /** @type {Set<string>} */
  const sources = new Set();
  list.forEach((r, i) => {
    const at = `redirects[${i}]`;
    if (typeof r.source !== 'string' || !/^\/[^?#\s]*\/$/.test(r.source)) problems.push(`${at}.source must be a site path starting and ending with /`);
    else if (sources.has(r.source)) problems.push(`${at}.source ${r.source} is listed twice`);
    else if (pagePaths.has(r.source)) problems.push(`${at}.source ${r.source} would hide a real page`);
    sources.add(r.source);
    const external = typeof r.target === 'string' && /^https:\/\/[^\s/]+/.test(r.target);
    const internal = typeof r.target === 'string' && /^\/[^\s]*\/(\?[^\s#]*)?$/.test(r.target);
    if (!external && !internal) problems.push(`${at}.target must be a site path ending in / or an https URL`);
    if (!statuses.has(r.status)) problems.push(`${at}.status must be one of 301, 302, 307, 308`);
  });
  for (const r of list) if (sources.has(r.target)) problems.push(`redirect ${r.source} -> ${r.target} chains into another redirect`);
  if (problems.length) throw new Error(`builds/redirects.json:\n  ${problems.join('\n  ')}`);
  return list.map(({ source, target, status }) => ({ source, target, status }));
}

/** functions/config/shop.json: the business constants and identity the functions and
 * the pages share, checked against shop-schema.json as the Go functions check it (the
 * same message for the same mistake: site/lib/shop-validate.mjs). */
export const shopConfigPath = path.join(root, 'functions', 'config', 'shop.json');
export const shopSchemaPath = path.join(root, 'functions', 'config', 'shop-schema.json');
/**
 * What the scripts read of functions/config/shop.json (docs/shop-config.md has every field).
 * @typedef {{
 *   business: { tradingName: string, legalName: string, registeredIn?: string, registeredAddress: string, companyNumber: string, vatNumber: string },
 *   bankTransfer: { accountName: string, sortCode: string, accountNumber: string },
 *   contact: { phone: string, email: string, address: string, hours: string },
 *   operations?: { alarm_email: string },
 *   minimumOrderPence?: number,
 * }} ShopConfig
 */

/** functions/config/shop.json, checked against its schema.
 * @returns {ShopConfig} */
export const readShopConfig = () =>
  /** @type {ShopConfig} */ (parseShop(readFileSync(shopConfigPath, 'utf8'), JSON.parse(readFileSync(shopSchemaPath, 'utf8'))));

/** Site versions buyers see: their builds must carry the shop's real details. */
const PUBLIC_VERSIONS = new Set(['staging', 'production']);

/** An address at a domain kept for examples (RFC 2606): nothing sent there arrives.
 * @param {string} email */
const isExampleEmail = (email) => /(\.example|[@.]example\.(com|net|org))$/i.test(email);

/** The example values in a shop.json that a real shop must replace before buyers see
 * them: an all-zero company number, VAT number, sort code or account number, the example
 * town in an address, and contact details in the ranges kept for examples (an .example
 * domain, RFC 2606; 01632 960xxx, Ofcom's numbers for drama), and an alarm email at an
 * example domain (.example, or example.com, .net or .org), where no alarm would ever
 * arrive. The release to AWS refuses the same (release-checks.mjs), and scripts/deploy.mjs
 * refuses to deploy a stage whose alarms would email nobody. */
export function placeholderProblems(/** @type {Partial<ShopConfig>} */ shop) {
  /** @type {string[]} */
  const problems = [];
  /** @type {Partial<ShopConfig['business']>} */
  const business = shop.business ?? {};
  /** @type {Partial<ShopConfig['bankTransfer']>} */
  const bank = shop.bankTransfer ?? {};
  /** @type {Partial<ShopConfig['contact']>} */
  const contact = shop.contact ?? {};
  if (!/[1-9]/.test(business.companyNumber ?? '')) problems.push(`business.companyNumber "${business.companyNumber ?? ''}" is a placeholder`);
  if (!/[1-9]/.test(business.vatNumber ?? '')) problems.push(`business.vatNumber "${business.vatNumber ?? ''}" is a placeholder`);
  if (/exampleton/i.test(business.registeredAddress ?? '')) problems.push(`business.registeredAddress "${business.registeredAddress}" is an example address`);
  if (!/[1-9]/.test(bank.sortCode ?? '')) problems.push(`bankTransfer.sortCode "${bank.sortCode ?? ''}" is a placeholder`);
  if (!/[1-9]/.test(bank.accountNumber ?? '')) problems.push(`bankTransfer.accountNumber "${bank.accountNumber ?? ''}" is a placeholder`);
  if (/\.example$/i.test(contact.email ?? '')) problems.push(`contact.email "${contact.email}" is an example address`);
  if (/^01632\s?960/.test(contact.phone ?? '')) problems.push(`contact.phone "${contact.phone}" is a number kept for drama`);
  if (/exampleton/i.test(contact.address ?? '')) problems.push(`contact.address "${contact.address}" is an example address`);
  const alarmEmail = shop.operations?.alarm_email ?? '';
  if (isExampleEmail(alarmEmail)) problems.push(`operations.alarm_email "${alarmEmail}" is an example address`);
  return problems;
}

/** Refuses a staging or production build while shop.json holds placeholders, with every
 * one named; a local build may use them.
 * @param {Partial<ShopConfig>} shop
 * @param {string} [siteVersion] */
export function checkPublishable(shop, siteVersion = 'local') {
  if (!PUBLIC_VERSIONS.has(siteVersion)) return;
  const problems = placeholderProblems(shop);
  if (problems.length) {
    throw new Error(
      `refusing a ${siteVersion} build: functions/config/shop.json still holds placeholders that buyers would read as the shop's own details:\n  ${problems.join('\n  ')}\nPut the real details in functions/config/shop.json (docs/build-and-release.md), or build with SITE_VERSION=local.`,
    );
  }
}

/** The site address and Firebase project a build from env is made for (and records in
 * its meta file): locally the edge's default address and the emulator's demo project. */
export const buildSettings = (/** @type {NodeJS.ProcessEnv} */ env) => ({
  siteUrl: (env.SITE_URL || 'http://127.0.0.1:8080').replace(/\/$/, ''),
  firebaseProjectId: env.NEXT_PUBLIC_FIREBASE_PROJECT_ID || 'demo-tradeshop',
});

/** The snapshot's catalogue pages as the partial build's plan reads them: the sha256 of
 * each page's payload and filter index, and a product page's forward dates.
 * @param {string[]} pages
 * @returns {Map<string, import('./partial.mjs').SnapshotPage>} */
export function snapshotPages(pages, dir = snapshotDir) {
  /** @type {Map<string, import('./partial.mjs').SnapshotPage>} */
  const out = new Map();
  for (const page of pages) {
    const payload = readFileSync(path.join(dir, 'pages', page, '_payload.json'));
    const filterFile = path.join(dir, 'pages', page, '_filter.json');
    // Only a product page's own forward dates reach its HTML at build time (its schema.org offer).
    const forward = payload.includes('"forward":{') ? (JSON.parse(payload.toString('utf8')).product?.forward ?? null) : null;
    out.set(page, { payload: sha256(payload), filter: existsSync(filterFile) ? sha256(readFileSync(filterFile)) : null, forward });
  }
  return out;
}

/** The file naming a partial build's pages to the site (site/lib/catalogue.ts, CATALOGUE_PAGES_FILE). */
const renderListPath = path.join(root, 'builds', 'snapshot-render.json');

/**
 * The target a build is for, when a release builds it: the target's current release and
 * how many releases to it did not finish, so the build can render only the pages whose
 * data changed (partial.mjs planPages); `full` forces every page.
 * @typedef {{ current: import('./target-state.mjs').ReleaseRecord | null, unfinished?: number, full?: boolean }} BuildFor
 */

/** Builds the site; answers { id, kind, reason, pages, rendered, htmlFiles, seconds }.
 * Without `release` (the test and bench commands) every page is rendered; with it (a
 * release, scripts/run) only the pages whose data changed since the target's current
 * release, when that is safe (docs/build-and-release.md "Partial builds").
 * @param {{ env?: NodeJS.ProcessEnv, shop?: Partial<ShopConfig>, release?: BuildFor }} [options] */
export async function buildSite({ env = process.env, shop = readShopConfig(), release } = {}) {
  // Refused before anything is built or written.
  checkPublishable(shop, env.SITE_VERSION);
  const started = performance.now();
  const id = newBuildId();
  const { siteUrl, firebaseProjectId } = buildSettings(env);
  if (!existsSync(path.join(binDir, 'snapshot'))) await buildGoCommands();

  say('build', `snapshot of the catalogue (build ${id})`);
  await run(path.join(binDir, 'snapshot'), ['-out', snapshotDir], { env });
  /** @type {{ pages: string[], products: number, menu: Parameters<typeof siteInputs>[0]['menu'] }} */
  const catalogue = JSON.parse(readFileSync(path.join(snapshotDir, 'catalogue.json'), 'utf8'));
  const redirects = validateRedirects(JSON.parse(readFileSync(path.join(root, 'builds', 'redirects.json'), 'utf8')), new Set(catalogue.pages));

  const nextEnv = {
    ...env,
    CATALOGUE_SNAPSHOT_DIR: snapshotDir,
    NEXT_PUBLIC_SITE_URL: siteUrl,
    NEXT_PUBLIC_FIREBASE_PROJECT_ID: firebaseProjectId,
    NEXT_PUBLIC_AUTH_EMULATOR_URL: env.AUTH_EMULATOR_URL ?? '',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  const code = codeVersion(nextEnv);
  say('build', `site code version ${code}`);
  const inputs = siteInputs({ code, menu: catalogue.menu });

  // Which pages to render: all, or (a release's build, when safe) those whose data changed.
  const pages = snapshotPages(catalogue.pages);
  /** @type {import('./partial.mjs').PagePlan} */
  let plan = release
    ? planPages({ pages, inputs, current: release.current, unfinished: release.unfinished, full: release.full })
    : { kind: 'full', reason: 'no release target to compare with' };
  /** @type {string[]} */
  let render = catalogue.pages;
  rmSync(renderListPath, { force: true });
  if (plan.kind === 'partial') {
    render = withEveryRoute(plan.render, pages.keys());
    writeFileSync(renderListPath, JSON.stringify(render));
    say('build', `partial build: ${plan.reason}; rendering ${render.length} catalogue pages (the home page always, one page of each listing route)`);
  } else {
    say('build', `full build: ${plan.reason}`);
  }

  const nextBuild = async (/** @type {boolean} */ partial) => {
    say('build', `next build of ${partial ? render.length : catalogue.pages.length} catalogue pages`);
    await run('npx', ['next', 'build'], {
      cwd: path.join(root, 'site'),
      env: { ...nextEnv, CODE_VERSION: code, ...(partial && { CATALOGUE_PAGES_FILE: renderListPath }) },
    });
  };
  await nextBuild(plan.kind === 'partial');
  // The pages carried from the current release share its layout: the 404 page, which is
  // nothing but the layout, must come out byte for byte as the current release's did.
  // Anything else every page shows that the site inputs do not name would differ here.
  const shellNow = sha256(readFileSync(path.join(exportDir, '404.html')));
  const shellBefore = release?.current?.files['404.html']?.sha256;
  if (plan.kind === 'partial' && shellNow !== shellBefore) {
    plan = { kind: 'full', reason: "the page shell changed (404.html differs from the current release's)" };
    render = catalogue.pages;
    say('build', `full build after all: ${plan.reason}`);
    await nextBuild(false);
  }
  rmSync(renderListPath, { force: true });

  say('build', `removed ${pruneRscFiles(exportDir)} RSC files no client fetches (index.txt kept)`);

  say('build', 'writing _payload.json beside every prerendered page (and _filter.json beside each listing)');
  for (const page of render) {
    if (!existsSync(path.join(exportDir, page, 'index.html'))) throw new Error(`page ${page} has a payload but was not exported`);
    copyFileSync(path.join(snapshotDir, 'pages', page, '_payload.json'), path.join(exportDir, page, '_payload.json'));
    // A category or range page's filter index (docs/catalogue.md "Sort and filter").
    const index = path.join(snapshotDir, 'pages', page, '_filter.json');
    if (existsSync(index)) copyFileSync(index, path.join(exportDir, page, '_filter.json'));
  }
  // Content pages' payloads are exported by the route handler under /payload-export/.
  const contentPayloads = path.join(exportDir, 'payload-export');
  const contentPaths = [];
  for (const rel of listRelative(contentPayloads)) {
    const page = path.dirname(rel);
    if (!existsSync(path.join(exportDir, page, 'index.html'))) throw new Error(`content payload for /${page}/ has no exported page`);
    renameSync(path.join(contentPayloads, rel), path.join(exportDir, page, '_payload.json'));
    contentPaths.push(`/${page}/`);
  }
  rmSync(contentPayloads, { recursive: true, force: true });
  const contentPages = contentPaths.length;

  // Every page of the build, rendered now or carried: the release of a partial build reads
  // its page list from here (partial.mjs withCarriedPages).
  const shards = writeSitemaps(exportDir, siteUrl, [...catalogue.pages, ...contentPaths], new Date().toISOString().slice(0, 10));
  say('build', `sitemap index with ${shards} shard(s) for ${catalogue.pages.length + contentPages} pages`);

  const timestamp = Date.now();
  mkdirSync(path.join(exportDir, 'builds', 'meta'), { recursive: true });
  // siteUrl and firebaseProjectId: what the release to AWS checks (release-checks.mjs);
  // inputs: what the next build compares (partial.mjs); partial: what this export lacks.
  /** @type {Record<string, unknown>} */
  const meta = { id, timestamp, redirects, siteUrl, firebaseProjectId, inputs };
  if (plan.kind === 'partial') {
    const renderSet = new Set(render);
    const carried = catalogue.pages.filter((p) => !renderSet.has(p));
    // The same digest the release computes from the current release's manifest.
    /** @type {Map<string, string | null>} */
    const hashes = new Map();
    for (const p of carried) {
      const { payload, filter } = /** @type {import('./partial.mjs').SnapshotPage} */ (pages.get(p));
      hashes.set(`${pageDir(p)}_payload.json`, payload).set(`${pageDir(p)}_filter.json`, filter);
    }
    const digest = carriedDigest(carried, (rel) => hashes.get(rel));
    meta.partial = { base: release?.current?.id, carried: carried.length, digest };
  }
  writeFileSync(path.join(exportDir, metaPath(id)), JSON.stringify(meta));
  // Written last: an open tab that sees this id can load everything above.
  writeFileSync(path.join(exportDir, latestPath), latestBody({ id, timestamp }));

  const htmlFiles = listRelative(exportDir).filter((f) => f.endsWith('.html')).length;
  const seconds = (performance.now() - started) / 1000;
  say(
    'build',
    `build ${id} (${plan.kind}): ${catalogue.pages.length} catalogue pages (${render.length} rendered), ${contentPages} content pages, ${htmlFiles} HTML files, ${catalogue.products} products, ${seconds.toFixed(1)}s`,
  );
  return {
    id,
    code,
    kind: plan.kind,
    reason: plan.reason,
    pages: catalogue.pages.length + contentPages,
    rendered: render.length + contentPages,
    htmlFiles,
    products: catalogue.products,
    seconds,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildSite().catch((err) => {
    console.error(`build: ${err.message}`);
    process.exit(1);
  });
}
