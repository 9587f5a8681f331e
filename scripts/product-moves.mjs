// @ts-check
// Renamed products keep their address (issue 40). A product's page is /{slug of its name}-{sku}/,
// so a rename moves it. Every release records the SKU and path of each product page of its
// build (releases/{id}.json `products`); the next release compares its own with the current
// build's and adds a permanent redirect from each old path to the new one to the build's
// route rules, after the hand-written ones of builds/redirects.json. The release, not the
// build, does this because only the release knows what the target holds: the same export
// published to two targets gets the redirects each one needs.
//
// The rules, each held by a test (product-moves.test.mjs):
// - redirects carry forward: a product renamed twice redirects both old paths straight to
//   its newest (a chain is never written, since every target is a live page and a live page
//   is never a source);
// - a redirect whose product has no page any more (discontinued) is dropped;
// - a path that is a live page of the build is never redirected (a new product took it);
// - a hand-written rule for the same source wins, and a hand-written rule whose target is a
//   moved product's old path is pointed at the new one.

/** @typedef {import('./export-manifest.mjs').Redirect} Redirect */

/**
 * A route rule the release wrote for a renamed product: the SKU says whose old address it
 * is, so the next release can carry it forward. The edges read only source, target, status.
 * @typedef {Redirect & { sku: string }} ProductRedirect
 */

/** What a product page's payload starts with: Go writes the struct's fields in order. */
const productPayloadStart = '{"kind":"product"';

/** The SKU of a product page's payload, or null for any other file.
 * @param {string} rel a path of the export
 * @param {Buffer} body
 * @returns {string | null} */
export function productSkuOf(rel, body) {
  if (!rel.endsWith('/_payload.json') || body.subarray(0, productPayloadStart.length).toString() !== productPayloadStart) return null;
  const sku = JSON.parse(body.toString('utf8'))?.product?.sku;
  return typeof sku === 'string' && sku !== '' ? sku : null;
}

/** The page path of an export file that is a page's HTML (`a/b/index.html` is `/a/b/`).
 * @param {string} rel
 * @returns {string | null} */
export function pagePathOf(rel) {
  if (rel === 'index.html') return '/';
  return rel.endsWith('/index.html') ? `/${rel.slice(0, -'index.html'.length)}` : null;
}

/** Whether a route rule is one the release wrote for a renamed product.
 * @param {Redirect} r
 * @returns {r is ProductRedirect} */
export const isProductRedirect = (r) => typeof (/** @type {any} */ (r).sku) === 'string';

/**
 * The build's route rules: the hand-written ones, then a 301 for every old address of a
 * product that still has a page, sorted by source.
 * @param {object} build
 * @param {Redirect[]} build.redirects the hand-written rules (builds/redirects.json, as the build wrote them)
 * @param {Record<string, string>} build.products SKU -> page path of every product page of the build
 * @param {Set<string>} build.pages every page path of the build
 * @param {{ products?: Record<string, string>, redirects?: Redirect[] } | null} previous the current build at the target (its release record)
 * @returns {Redirect[]}
 */
export function mergeProductRedirects({ redirects, products, pages }, previous) {
  const handWritten = redirects.filter((r) => !isProductRedirect(r));
  const handSources = new Set(handWritten.map((r) => r.source));
  /** @type {Map<string, string>} old path -> SKU */
  const moved = new Map();
  for (const r of previous?.redirects ?? []) if (isProductRedirect(r)) moved.set(r.source, r.sku);
  for (const [sku, path] of Object.entries(previous?.products ?? {})) moved.set(path, sku);
  /** @type {ProductRedirect[]} */
  const out = [];
  for (const [source, sku] of moved) {
    const target = products[sku];
    if (!target || target === source || pages.has(source) || handSources.has(source)) continue;
    out.push({ source, target, status: 301, sku });
  }
  out.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  const newPath = new Map(out.map((r) => [r.source, r.target]));
  return [...handWritten.map((r) => (newPath.has(r.target) ? { ...r, target: /** @type {string} */ (newPath.get(r.target)) } : r)), ...out];
}
