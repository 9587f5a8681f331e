// @ts-check
// Small generated exports and a recording target for the release tests (*.test.mjs).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * A build as the tests write it: its pages by path (null drops a file the export would
 * otherwise have), its route rules, and the site settings its meta file records.
 * @typedef {object} TestBuild
 * @property {string} id
 * @property {number} timestamp
 * @property {Record<string, string | null>} [files]
 * @property {import('./export-manifest.mjs').Redirect[]} [redirects]
 * @property {{ siteUrl?: string, firebaseProjectId?: string }} [site]
 */

/** A scratch folder removed when the test ends.
 * @param {{ after: (fn: () => void) => void }} t the test's context */
export function scratch(t) {
  const dir = mkdtempSync(path.join(tmpdir(), 'release-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes an export like build.mjs does: the pages given, index.html and 404.html, the
 * build's meta file (with site: { siteUrl, firebaseProjectId } if given) and latest.json. Answers { dir, id, timestamp, files }.
 * @param {string} dir
 * @param {TestBuild} build */
export function writeExport(dir, { id, timestamp, files = {}, redirects = [], site = {} }) {
  /** @type {Record<string, string | null>} */
  const all = {
    'index.html': `<h1>home of ${id}</h1>`,
    '404.html': 'We Were Unable to Find that Page',
    [`builds/meta/${id}.json`]: JSON.stringify({ id, timestamp, redirects, ...site }),
    'builds/latest.json': JSON.stringify({ id, timestamp }),
    ...files, // last, so a test can replace or (with null) drop any of the above
  };
  for (const [rel, body] of Object.entries(all)) {
    if (body === null) continue; // a test removing a required file
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  return { dir, id, timestamp, files: Object.fromEntries(Object.entries(all).filter(([, b]) => b !== null)) };
}

/** @type {TestBuild & { redirects: import('./export-manifest.mjs').Redirect[], files: Record<string, string> }} */
export const buildA = {
  id: '20260101T000000Z-aaaaaa',
  timestamp: Date.UTC(2026, 0, 1),
  redirects: [
    { source: '/christmas/', target: '/outlet/r/wholesale-christmas/', status: 301 },
    { source: '/feedback/', target: 'https://survey.tradeshop.example/feedback', status: 302 },
  ],
  files: {
    '_next/static/chunks/a1b2c3.js': 'console.log("build A")',
    '_next/static/css/a1b2c3.css': 'body{color:red}',
    'outlet/r/balloons/index.html': '<h1>balloons v1</h1>',
    'outlet/r/balloons/_payload.json': '{"range":"balloons"}',
    'outlet/r/balloons/index.txt': 'rsc balloons v1',
    'outlet/r/retired/index.html': '<h1>a range build B drops</h1>',
    'outlet/r/retired/_payload.json': '{"range":"retired"}',
    'blog/index.html': '<h1>blog</h1>',
    'sitemap.xml': '<?xml version="1.0"?><sitemapindex/>',
    'robots.txt': 'User-agent: *',
    'icon.svg': '<svg/>',
  },
};

/** @type {TestBuild & { redirects: import('./export-manifest.mjs').Redirect[], files: Record<string, string> }} */
export const buildB = {
  id: '20260102T000000Z-bbbbbb',
  timestamp: Date.UTC(2026, 0, 2),
  redirects: [{ source: '/christmas/', target: '/outlet/r/wholesale-xmas/', status: 301 }],
  files: {
    '_next/static/chunks/d4e5f6.js': 'console.log("build B")',
    '_next/static/css/a1b2c3.css': 'body{color:red}',
    'outlet/r/balloons/index.html': '<h1>balloons v2</h1>',
    'outlet/r/balloons/_payload.json': '{"range":"balloons"}',
    'outlet/r/balloons/index.txt': 'rsc balloons v2',
    'outlet/r/new-range/index.html': '<h1>new in B</h1>',
    'blog/index.html': '<h1>blog</h1>',
    'sitemap.xml': '<?xml version="1.0"?><sitemapindex/>',
    'robots.txt': 'User-agent: *',
    'icon.svg': '<svg/>',
  },
};

/** Wraps a target so every write is recorded as "start put path" / "end put path" (and
 * likewise restore, remove, save, edge calls), in the order they happen.
 * @param {import('./target-state.mjs').Target} target
 * @returns {{ target: import('./target-state.mjs').Target, events: string[] }} */
export function recording(target) {
  /** @type {string[]} */
  const events = [];
  /**
   * fn, recording its start and end as "start VERB NAME" and "end VERB NAME".
   * @template {(...args: any[]) => Promise<any>} F
   * @param {string} verb
   * @param {F} fn
   * @param {(args: Parameters<F>) => string} [name] what the call is on, from its arguments
   * @returns {F} */
  const wrap = (verb, fn, name = (a) => a[0]) =>
    /** @type {F} */ (
      async (...args) => {
        const label = `${verb} ${name(/** @type {Parameters<F>} */ (args))}`;
        events.push(`start ${label}`);
        const r = await fn(...args);
        events.push(`end ${label}`);
        return r;
      }
    );
  const rec = {
    ...target,
    put: wrap('put', target.put),
    restore: wrap('restore', target.restore),
    remove: wrap(
      'remove',
      async (/** @type {string[]} */ paths) => {
        for (const p of paths) events.push(`delete ${p}`);
        return target.remove(paths);
      },
      () => '',
    ),
    saveRelease: wrap('save', target.saveRelease, (a) => a[0].id),
  };
  if (target.edge) {
    rec.edge = {
      switchTo: wrap('edge', target.edge.switchTo, (a) => a[0]),
      invalidate: wrap('invalidate', target.edge.invalidate, (a) => a[0].join(' ')),
      prune: wrap('prune-rules', target.edge.prune, (a) => a[0].join(',')),
    };
  }
  return { target: rec, events };
}

/** Index of the first event matching, or -1.
 * @param {string[]} events
 * @param {string | ((e: string) => boolean)} pred */
export const at = (events, pred) => events.findIndex(typeof pred === 'string' ? (e) => e === pred : pred);
/** Index of the last event matching, or -1.
 * @param {string[]} events
 * @param {(e: string) => boolean} pred */
export const lastAt = (events, pred) => events.findLastIndex(pred);

/** Every file and folder under dir with its size and mtime: equal snapshots mean
 * nothing was written; null when dir does not exist.
 * @param {string} dir
 * @returns {string[] | null} */
export function snapshotTree(dir) {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((rel) => {
        const st = statSync(path.join(dir, rel));
        return `${rel} ${st.size} ${st.mtimeMs}`;
      });
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}

/** How a file sits in a dir target's site folder: 'gzip' (rel.gz), 'raw' (rel), or null
 * when neither is there; throws when both are (exactly one form must be).
 * @param {string} dir
 * @param {string} rel
 * @returns {'gzip' | 'raw' | null} */
export function storedForm(dir, rel) {
  const raw = existsSync(path.join(dir, rel));
  const gz = existsSync(path.join(dir, `${rel}.gz`));
  if (raw && gz) throw new Error(`${rel} is in ${dir} both raw and as ${rel}.gz`);
  return gz ? 'gzip' : raw ? 'raw' : null;
}

/** A file of a folder as the edge serves it: rel, or rel.gz decompressed (a dir target
 * stores compressible files gzip-compressed, target-dir.mjs).
 * @param {string} dir
 * @param {string} rel */
export const read = (dir, rel) =>
  storedForm(dir, rel) === 'gzip' ? gunzipSync(readFileSync(path.join(dir, `${rel}.gz`))).toString('utf8') : readFileSync(path.join(dir, rel), 'utf8');

/** A build's settings and a shop.json as a real shop's release has them (release-checks.mjs
 * passes them); tests spoil one thing at a time. */
export const realSite = { siteUrl: 'https://trade.tradeshop.co.uk', firebaseProjectId: 'tradeshop-production' };
export const realShop = {
  business: {
    tradingName: 'TradeShop Wholesale',
    legalName: 'TradeShop Wholesale Limited',
    registeredAddress: 'Unit 4, Marsh Barton Trading Estate, Exeter, EX2 8LP',
    companyNumber: '09876543',
    vatNumber: 'GB123456789',
  },
  bankTransfer: { accountName: 'TradeShop Wholesale Ltd', sortCode: '20-45-77', accountNumber: '41308826' },
  contact: { phone: '01392 555 010', email: 'trade@tradeshop.co.uk', address: 'Unit 4, Marsh Barton Trading Estate, Exeter, EX2 8LP', hours: '9 to 5' },
};
