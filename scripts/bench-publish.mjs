// @ts-check
// The bench's `publish` figures (issue 40, docs/PERFORMANCE.md "Publishing in proportion to
// change"): a full build and release of a seeded catalogue to a dir target, then a change of
// a few products' prices through the catalogue import and the partial build and release that
// publishes it, each timed with the pages it rendered and the files it uploaded. For a
// catalogue whose full build would take too long or too much disk (50,000 products), the
// partial path is timed against a current release made from the snapshot's hashes, as if
// the full release had been published: the build is real, the release is planned, not
// written (its carried pages are not at any target).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { binDir, capture, run } from './lib.mjs';
import { buildSite, exportDir, snapshotDir } from './build.mjs';
import { readExport, sameStored, sha256 as sha, storedSizeOf } from './export-manifest.mjs';
import { openTarget, planRelease, publishExport } from './publish.mjs';
import { emptyState } from './target-state.mjs';
import { siteInputs } from './partial.mjs';
import { csvLine, parseCSV } from '../site/lib/csv.mjs';

/** @typedef {import('./target-state.mjs').ReleaseRecord} ReleaseRecord */

/** A CSV file of rows, in the catalogue export's quoting.
 * @param {string[][]} rows */
export const writeCsv = (rows) => rows.map(csvLine).join('\n') + '\n';

/** Raises the unit price of `n` products spread over the catalogue by 11p, through the
 * catalogue import as staff would; answers their SKUs.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} scratch
 * @param {number} n */
export async function changePrices(env, scratch, n) {
  const file = path.join(scratch, 'catalogue-export.csv');
  await capture(path.join(binDir, 'catalogue'), ['export', '-out', file], { env });
  const [header, ...rows] = parseCSV(readFileSync(file, 'utf8')).filter((r) => r.length > 1);
  const price = header.indexOf('unit_price');
  const picked = Array.from({ length: n }, (_, i) => rows[Math.floor(((i + 0.5) * rows.length) / n)]);
  for (const r of picked) r[price] = (Number(r[price]) + 0.11).toFixed(2);
  const change = path.join(scratch, 'catalogue-change.csv');
  writeFileSync(change, writeCsv([header, ...picked]));
  await capture(path.join(binDir, 'catalogue'), ['import', change], { env });
  return picked.map((r) => r[0]);
}

/** The release record a full release of the current snapshot would have saved, made from
 * the snapshot's hashes: each catalogue page's payload and filter index with a stand-in for
 * its HTML, the products' paths, and the site inputs and page shell of `like` (a real
 * release of the same code). Enough for a partial build to plan against.
 * @param {ReleaseRecord} like
 * @returns {ReleaseRecord} */
export function releaseFromSnapshot(like) {
  const { pages, product_paths: productPaths } = JSON.parse(readFileSync(path.join(snapshotDir, 'catalogue.json'), 'utf8'));
  const stand = { size: 0, cacheControl: '', contentType: '' };
  /** @type {ReleaseRecord['files']} */
  const files = { '404.html': like.files['404.html'] };
  for (const page of pages) {
    const dir = page.slice(1);
    const read = (/** @type {string} */ name) => {
      try {
        return readFileSync(path.join(snapshotDir, 'pages', page, name));
      } catch {
        return null;
      }
    };
    files[`${dir}index.html`] = { ...stand, sha256: 'stand-in' };
    for (const name of ['_payload.json', '_filter.json']) {
      const body = read(name);
      if (body) files[`${dir}${name}`] = { ...stand, sha256: sha(body) };
    }
  }
  /** @type {Record<string, string>} */
  const products = {};
  for (const p of productPaths) products[JSON.parse(readFileSync(path.join(snapshotDir, 'pages', p, '_payload.json'), 'utf8')).product.sku] = p;
  return { id: 'from-snapshot', timestamp: Date.now(), redirects: [], files, products, inputs: like.inputs };
}

/**
 * The publish figures of one catalogue size. `real`: a full build and release, then a
 * change and a partial one, both to a dir target in scratch; otherwise (a catalogue too big
 * to build in full here) the snapshot's hashes stand in for the full release, and `like`
 * (a real release of the same code) gives the site inputs and the page shell.
 * @param {object} options
 * @param {NodeJS.ProcessEnv} options.env a table of its own, already seeded
 * @param {string} options.scratch
 * @param {number} options.products
 * @param {(name: string, value: number, unit: string, note?: string) => void} options.record
 * @param {ReleaseRecord | null} [options.like]
 * @param {number} [options.change] how many products' prices change
 * @returns {Promise<ReleaseRecord | null>} the full release's record (real runs)
 */
export async function publishFigures({ env, scratch, products, record, like = null, change = 3 }) {
  const n = products.toLocaleString('en-GB');
  const quiet = () => {};
  if (!like) {
    const target = await openTarget(`dir:${path.join(scratch, `publish-${products}`)}`);
    let t = performance.now();
    const full = await buildSite({ env, release: { current: null } });
    const fullRecord = await publishExport({ exportDir, target, log: quiet });
    record(
      `publish, full, ${n} products`,
      secs(t),
      's',
      `(build ${full.seconds.toFixed(1)} s rendering ${full.rendered} pages, then the release of ${fullRecord.id}: ${(Object.values(fullRecord.files).reduce((n, e) => n + storedSizeOf(e), 0) / 1e6).toFixed(1)} MB as stored)`,
    );
    await changePrices(env, scratch, change);
    t = performance.now();
    const state = await target.state();
    const partial = await buildSite({ env, release: { current: state.current, unfinished: state.unfinished.length } });
    const before = state.current?.files ?? {};
    const rec = await publishExport({ exportDir, target, log: quiet });
    const uploaded = Object.entries(rec.files).filter(([p, e]) => !sameStored(before[p], e)).length;
    record(
      `publish, ${change} prices changed, ${n} products`,
      secs(t),
      's',
      `(${partial.kind} build ${partial.seconds.toFixed(1)} s rendering ${partial.rendered} of ${partial.pages} pages: ${partial.reason}; ${uploaded} files changed)`,
    );
    return fullRecord;
  }
  // Too big to build in full here: the snapshot stands in for the full release.
  await run(path.join(binDir, 'snapshot'), ['-out', snapshotDir], { env });
  const current = releaseFromSnapshot(like);
  // The stand-in borrows the small catalogue's site inputs: with another header menu the
  // build would be a full one, which is what this path exists to avoid.
  const { menu } = JSON.parse(readFileSync(path.join(snapshotDir, 'catalogue.json'), 'utf8'));
  if (siteInputs({ code: '', menu }).menu !== like.inputs?.menu)
    throw new Error(`the ${n}-product catalogue's header menu differs from the real release's: no stand-in`);
  await changePrices(env, scratch, change);
  const t = performance.now();
  const partial = await buildSite({ env, release: { current } });
  const exp = await readExport(exportDir);
  const plan = planRelease(exp, { ...emptyState(), current });
  record(
    `publish, ${change} prices changed, ${n} products`,
    secs(t),
    's',
    `(${partial.kind} build ${partial.seconds.toFixed(1)} s rendering ${partial.rendered} of ${partial.pages} pages: ${partial.reason}; against a current release made from the snapshot's hashes; the release planned (${exp.count.toLocaleString('en-GB')} files of the export, ${Object.keys(plan.build.files).length.toLocaleString('en-GB')} in the release with the carried pages), not written)`,
  );
  return null;
}

const secs = (/** @type {number} */ t0) => Number(((performance.now() - t0) / 1000).toFixed(1));
