// @ts-check
// Publishing in proportion to change (issue 40): a release that renders only the catalogue
// pages whose data changed since the target's current release, and publishes them as a new
// release whose manifest is the current release's files with those pages replaced
// (docs/build-and-release.md "Partial builds"). Pure functions, held by partial.test.mjs:
//
// - siteInputs and inputsChange: what every page's HTML depends on beyond its own payload
//   (the code version, the header menu's links, the footer's year), recorded in each
//   build's meta file and release record; a change of any of them needs a full build;
// - planPages: full or partial, and which pages to render, from the snapshot's page hashes
//   against the current release's manifest;
// - carriedDigest and withCarriedPages: the release of a partial export, which carries the
//   pages it did not render from the current release after checking that they are the
//   pages the build left out.
import { createHash } from 'node:crypto';
import { sameStored } from './export-manifest.mjs';

/** @typedef {import('./export-manifest.mjs').Export} Export */
/** @typedef {import('./target-state.mjs').ReleaseRecord} ReleaseRecord */

/**
 * What every page's HTML depends on besides its own _payload.json and _filter.json,
 * recorded in builds/meta/{id}.json and the release record. `day` is not compared: it is
 * the London day the pages were rendered on, which only a forward product's page reads
 * (its schema.org offer is a pre-order while the pre-order is open).
 * @typedef {object} SiteInputs
 * @property {string} code the site's code version (build.mjs codeVersion: sources, lock file, shop.json, settings)
 * @property {string} menu a hash of the header menu's links (names, paths and category ids), which every page carries
 * @property {number} year the footer's copyright year
 * @property {string} day YYYY-MM-DD, London
 */

/**
 * A partial export's declaration in its meta file: the release it was built against, and
 * how many pages it left out with a digest of their payload hashes (carriedDigest), so
 * the release can check that the target holds exactly those pages before carrying them.
 * @typedef {object} PartialOf
 * @property {string} base the id of the release the build was planned against
 * @property {number} carried how many catalogue pages the export does not hold
 * @property {string} digest carriedDigest of those pages
 */

/**
 * A catalogue page of the snapshot as the plan needs it: the sha256 of its payload and
 * filter index (null when it has none), and a product page's forward dates.
 * @typedef {object} SnapshotPage
 * @property {string} payload
 * @property {string | null} filter
 * @property {{ order_by: string } | null} [forward]
 */

/**
 * The kind of build and why: a full build, or a partial one rendering `render` (always
 * with the home page), with `removed` the current release's pages the snapshot no longer
 * has and `carried` how many pages the release takes from the current one.
 * @typedef {{ kind: 'full', reason: string }
 *   | { kind: 'partial', reason: string, render: string[], removed: string[], carried: string[] }} PagePlan
 */

/** The default largest share of the catalogue's pages a partial build renders: above it a
 * full build costs little more and carries nothing that could have gone stale. */
export const PARTIAL_MAX_SHARE = 0.5;

const nf = new Intl.NumberFormat('en-GB');
/** n and the word, plural unless n is 1 (publish.mjs count, which imports this module). */
const count = (/** @type {number} */ n, /** @type {string} */ word) => `${nf.format(n)} ${word}${n === 1 ? '' : 's'}`;

const londonDayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' });
/** YYYY-MM-DD in London, the day the shop's dates mean (site/lib/forward.ts londonToday). */
export const londonDay = (/** @type {Date} */ now) => londonDayFormat.format(now);

/**
 * The site inputs of a build. `menu` is the catalogue's menu (catalogue.json): only what
 * the header shows of it counts (site/lib/menu-links.ts menuLinks), so a product added or
 * discontinued, which changes a category's count, does not force a full build. The build
 * checks the model after rendering: a partial build's 404 page, which holds nothing but
 * the layout, must be byte-identical to the current release's (build.mjs).
 * @param {{ code: string, menu: { ranges: { name: string, path: string }[], groups: { name: string, categories: { id: number, name: string, path: string }[] }[] }, now?: Date }} options
 * @returns {SiteInputs}
 */
export function siteInputs({ code, menu, now = new Date() }) {
  const links = {
    ranges: menu.ranges.map(({ name, path }) => ({ name, path })),
    groups: menu.groups.map((g) => ({ name: g.name, categories: g.categories.map(({ id, name, path }) => ({ id, name, path })) })),
  };
  const day = londonDay(now);
  return { code, menu: createHash('sha256').update(JSON.stringify(links)).digest('hex').slice(0, 16), year: Number(day.slice(0, 4)), day };
}

/** Why a build with inputs `next` cannot reuse pages rendered with `previous`, or null
 * when it can.
 * @param {Partial<SiteInputs> | undefined} previous
 * @param {SiteInputs} next
 * @returns {string | null} */
export function inputsChange(previous, next) {
  if (!previous) return 'the current release records no site inputs (it was published before partial builds)';
  if (previous.code !== next.code) return `the code version changed (${previous.code} to ${next.code})`;
  if (previous.menu !== next.menu) return "the header menu's ranges or categories changed";
  if (previous.year !== next.year) return `the footer's year changed (${previous.year} to ${next.year})`;
  return null;
}

/** A page path's folder in the export: '/' is '', '/a/b/' is 'a/b/'.
 * @param {string} page */
export const pageDir = (page) => page.slice(1);

/** The page whose folder holds an export file ('a/b/index.html' is '/a/b/'): a file
 * belongs to the page of its own folder, never to a page above it.
 * @param {string} rel */
export const pageOfFile = (rel) => {
  const cut = rel.lastIndexOf('/');
  return cut < 0 ? '/' : `/${rel.slice(0, cut + 1)}`;
};

/** What a page path is, for people: home, range, category or product. */
const kindOf = (/** @type {string} */ page) =>
  page === '/' ? 'home' : page.startsWith('/outlet/section/') ? 'category' : page.startsWith('/outlet/r/') ? 'range' : 'product';

/** "3 products, 1 category" for a list of page paths.
 * @param {string[]} pages */
export function describePages(pages) {
  /** @type {Record<string, number>} */
  const n = {};
  for (const p of pages) n[kindOf(p)] = (n[kindOf(p)] ?? 0) + 1;
  const words = { product: 'product', category: 'category', range: 'range', home: 'home page' };
  return /** @type {(keyof typeof words)[]} */ (['product', 'category', 'range', 'home'])
    .filter((k) => n[k])
    .map((k) => (k === 'category' ? `${n[k]} ${n[k] === 1 ? 'category' : 'categories'}` : count(n[k], words[k])))
    .join(', ');
}

/** Whether a forward product's pre-order is open on a London day (site/lib/forward.ts). */
const preOrderOpen = (/** @type {{ order_by: string } | null | undefined} */ f, /** @type {string} */ day) => !!f && day <= f.order_by;

/**
 * Full or partial, and which pages: a catalogue page is rendered when its payload or
 * filter index differs from (or is missing in) the current release, when it lacks its HTML
 * there, or when it is a forward product whose pre-order opened or closed since the current
 * release was rendered; the home page always is. The current release's range, category
 * and product pages that the snapshot lacks are removed.
 * @param {object} options
 * @param {Map<string, SnapshotPage>} options.pages every catalogue page of the snapshot, '/' included
 * @param {SiteInputs} options.inputs this build's
 * @param {ReleaseRecord | null} options.current the target's current release
 * @param {number} [options.unfinished] releases to the target that started and did not finish
 * @param {boolean} [options.full] --full
 * @param {number} [options.maxShare]
 * @returns {PagePlan}
 */
export function planPages({ pages, inputs, current, unfinished = 0, full = false, maxShare = PARTIAL_MAX_SHARE }) {
  if (full) return { kind: 'full', reason: '--full' };
  if (!current) return { kind: 'full', reason: 'the target has no current release' };
  if (!current.products) return { kind: 'full', reason: "the current release records no product paths (it was published before issue 40's renames)" };
  const changed = inputsChange(current.inputs, inputs);
  if (changed) return { kind: 'full', reason: changed };
  if (unfinished) return { kind: 'full', reason: `${count(unfinished, 'release')} to the target started and did not finish` };
  const files = current.files;
  const render = ['/'];
  /** @type {string[]} */
  const carried = [];
  for (const [page, p] of pages) {
    if (page === '/') continue;
    const dir = pageDir(page);
    const same =
      files[`${dir}index.html`] &&
      files[`${dir}_payload.json`]?.sha256 === p.payload &&
      (files[`${dir}_filter.json`]?.sha256 ?? null) === p.filter &&
      preOrderOpen(p.forward, inputs.day) === preOrderOpen(p.forward, current.inputs?.day ?? '');
    (same ? carried : render).push(page);
  }
  const previous = new Set(Object.values(current.products));
  for (const rel of Object.keys(files)) if (rel.startsWith('outlet/') && rel.endsWith('/_payload.json')) previous.add(pageOfFile(rel));
  const removed = [...previous].filter((p) => !pages.has(p)).sort();
  const touched = render.length - 1 + removed.length;
  const total = pages.size;
  const what = [describePages(render.slice(1)), removed.length ? `${describePages(removed)} removed` : ''].filter(Boolean).join('; ');
  const summary = `${nf.format(touched)} of ${count(total, 'page')} changed${what ? ` (${what})` : ''}`;
  if (touched > maxShare * total) return { kind: 'full', reason: `${summary}: more than ${Math.round(maxShare * 100)}% of the pages` };
  return { kind: 'partial', reason: summary, render, removed, carried };
}

/** A digest of pages' payload and filter hashes in a manifest: what a partial export
 * promises the target's current release holds for the pages it left out.
 * @param {string[]} pages
 * @param {(rel: string) => string | null | undefined} sha256Of a file's hash, or nothing when it is missing
 * @returns {string} */
export function carriedDigest(pages, sha256Of) {
  const h = createHash('sha256');
  for (const page of [...pages].sort()) {
    const dir = pageDir(page);
    h.update(`${page}\t${sha256Of(`${dir}_payload.json`) ?? '-'}\t${sha256Of(`${dir}_filter.json`) ?? '-'}\n`);
  }
  return h.digest('hex');
}

/**
 * The export as the release publishes it: a full export as it is; a partial one with the
 * pages it left out carried from the target's current release (every file of each such
 * page's own folder, with its hash, so none is uploaded again), and their products' SKUs
 * and paths. The pages are the ones its sitemaps list (the build writes them from the whole
 * snapshot) that it did not render. Throws, naming why, when the current release cannot
 * supply them: no current release, other site inputs, pages missing or not the ones the
 * build left out (another release since), or files a release that did not finish may have
 * overwritten.
 * @param {Export} exp
 * @param {ReleaseRecord | null} current
 * @param {ReleaseRecord[]} [unfinished]
 * @returns {Export}
 */
export function withCarriedPages(exp, current, unfinished = []) {
  const partial = /** @type {PartialOf | undefined} */ (exp.meta?.partial);
  if (!partial) return exp;
  const refuse = (/** @type {string} */ why) =>
    new Error(
      `export ${exp.dir} is a partial build against release ${partial.base} and ${why}: release it with a fresh build (scripts/release chooses, --full forces a full one)`,
    );
  if (!current) throw refuse('the target has no current release to carry its other pages from');
  const change = inputsChange(current.inputs, /** @type {SiteInputs} */ (exp.meta.inputs));
  if (change) throw refuse(`cannot reuse the current release's pages (${change})`);
  /** @type {Set<string>} */
  const rendered = new Set();
  for (const rel of Object.keys(exp.files)) if (rel.endsWith('index.html')) rendered.add(pageOfFile(rel));
  const carriedPages = (exp.pages ?? []).filter((p) => !rendered.has(p));
  /** @type {Map<string, string[]>} */
  const byPage = new Map(carriedPages.map((p) => [p, []]));
  for (const rel of Object.keys(current.files)) byPage.get(pageOfFile(rel))?.push(rel);
  const missing = carriedPages.filter((p) => !current.files[`${pageDir(p)}index.html`] || !current.files[`${pageDir(p)}_payload.json`]);
  if (missing.length)
    throw refuse(`the current release ${current.id} lacks ${count(missing.length, 'page')} it should carry (${missing.slice(0, 3).join(', ')})`);
  if (carriedPages.length !== partial.carried || carriedDigest(carriedPages, (rel) => current.files[rel]?.sha256) !== partial.digest) {
    throw refuse(`the current release ${current.id} does not hold the pages the build left out (another release since?)`);
  }
  const dirty = new Set();
  for (const u of unfinished) for (const [p, e] of Object.entries(u.files)) if (!sameStored(current.files[p], e)) dirty.add(p);
  /** @type {Export['files']} */
  const files = {};
  let bytes = exp.bytes;
  let storedBytes = exp.storedBytes ?? exp.bytes;
  for (const rels of byPage.values()) {
    for (const rel of rels) {
      if (dirty.has(rel)) throw refuse(`${rel} may have been overwritten by a release that did not finish`);
      // As the current release stores it: compressed or not (a release saved before gzip
      // storage holds its files raw), so a carried file is never written again.
      const { sha256, size, cacheControl, contentType, contentEncoding, storedSize } = current.files[rel];
      files[rel] = { sha256, size, cacheControl, contentType, ...(contentEncoding && { contentEncoding, storedSize }) };
      bytes += size;
      storedBytes += storedSize ?? size;
    }
  }
  Object.assign(files, exp.files);
  const carriedSet = new Set(carriedPages);
  const products = { ...exp.products };
  for (const [sku, page] of Object.entries(current.products ?? {})) if (carriedSet.has(page) && !(sku in products)) products[sku] = page;
  const sorted = Object.fromEntries(
    Object.keys(files)
      .sort()
      .map((k) => [k, files[k]]),
  );
  return {
    ...exp,
    files: sorted,
    products: Object.fromEntries(Object.entries(products).sort(([a], [b]) => (a < b ? -1 : 1))),
    count: Object.keys(sorted).length,
    bytes,
    storedBytes,
  };
}

/** Next's static export refuses a dynamic route that renders no page ("missing
 * generateStaticParams()"), so a partial build that changed no range page, or no category
 * page, renders the first one of that route as well: its data did not change, so its files
 * come out byte-identical and the release uploads none of them. Products share the
 * catch-all route with the content pages, which are always rendered.
 * @param {string[]} render
 * @param {Iterable<string>} pages every catalogue page of the snapshot
 * @returns {string[]} */
export function withEveryRoute(render, pages) {
  const out = [...render];
  const all = [...pages].sort();
  for (const prefix of ['/outlet/r/', '/outlet/section/']) {
    if (out.some((p) => p.startsWith(prefix))) continue;
    const first = all.find((p) => p.startsWith(prefix));
    if (first) out.push(first);
  }
  return out;
}
