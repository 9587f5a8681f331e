// @ts-check
// What a release publishes: the Cache-Control and Content-Type of every file, and the
// manifest of an export (path -> sha256, size, cacheControl, contentType, and for a file
// stored gzip-compressed contentEncoding and storedSize) after checking that the export is
// a whole build. The release plan (publish.mjs) diffs manifests, so only files whose bytes
// changed are uploaded.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import { CONCURRENCY, mapLimit } from './map-limit.mjs';
import { productSkuOf } from './product-moves.mjs';

/**
 * A file's entry in a build's manifest: its hash and size, and the headers it is published with.
 * @typedef {object} ManifestEntry
 * sha256 and size are always those of the export's own bytes (what the build wrote), so
 * comparing builds and carrying pages does not depend on how a file is stored; a
 * compressible file (storedEncoding) is stored and served gzip-compressed, and says so.
 * @property {string} sha256 hex, of the raw bytes
 * @property {number} size bytes, raw
 * @property {string} cacheControl
 * @property {string} contentType
 * @property {'gzip'} [contentEncoding] the file is stored (and served) gzip-compressed
 * @property {number} [storedSize] bytes as stored, when contentEncoding is set
 */

/**
 * A route rule of the build (its meta file), which the edge applies.
 * @typedef {object} Redirect
 * @property {string} source a path
 * @property {string} target a path or an address
 * @property {number} status
 */

/**
 * A validated export: its build and manifest (readExport).
 * @typedef {object} Export
 * @property {string} dir the export's absolute path
 * @property {string} id the build id
 * @property {number} timestamp the build's time, Unix ms
 * @property {Redirect[]} redirects
 * @property {{ siteUrl?: string, firebaseProjectId?: string }} site as the build recorded them in the meta file
 * @property {Record<string, ManifestEntry>} files by path, sorted
 * @property {Record<string, string>} products SKU -> page path of every product page (its payload names the SKU)
 * @property {Record<string, any>} meta the meta file as the build wrote it
 * @property {import('./partial.mjs').SiteInputs} [inputs] what every page depends on beyond its payload (the meta file's, partial.mjs)
 * @property {string[]} [pages] every page path the export's sitemaps list: the build's pages, rendered or not (a partial build's, partial.mjs)
 * @property {number} count how many files
 * @property {number} bytes their total size
 * @property {number} [storedBytes] their total size as stored (compressible files gzip-compressed)
 * @property {Map<string, Buffer>} [storedBodies] the gzip of compressible files, by path, as
 *   readExport made them (up to STORED_CACHE_BYTES), so the release does not compress them again
 */

/** Content-hashed assets never change under their name: cache them for a year. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** latest.json tells open tabs which build is current: never cached anywhere. */
export const CACHE_NEVER = 'no-store';
/** Pages, payloads and route rules: browsers revalidate, the CDN may keep them a minute
 * (the release invalidates the CDN anyway before it switches latest.json). */
export const CACHE_SHORT = 'public, max-age=0, s-maxage=60';

/** Whether a path of the export is a content-hashed asset (Next's _next/static/).
 * @param {string} rel */
export const isHashedAsset = (rel) => rel.startsWith('_next/static/');

/** The Cache-Control of a file of the export, by its path relative to the export root.
 * @param {string} rel */
export function cacheControlFor(rel) {
  if (isHashedAsset(rel)) return CACHE_IMMUTABLE;
  if (rel === 'builds/latest.json') return CACHE_NEVER;
  return CACHE_SHORT;
}

const utf8 = '; charset=utf-8';
/** @type {Record<string, string>} */
const contentTypes = {
  html: 'text/html' + utf8,
  json: 'application/json' + utf8,
  js: 'text/javascript' + utf8,
  css: 'text/css' + utf8,
  txt: 'text/plain' + utf8, // the RSC payloads Next exports beside each page
  xml: 'application/xml' + utf8,
  csv: 'text/csv' + utf8, // the quick order's sample file
  svg: 'image/svg+xml' + utf8,
  webmanifest: 'application/manifest+json' + utf8,
  map: 'application/json' + utf8,
  ico: 'image/x-icon',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  woff2: 'font/woff2',
};

/** The Content-Type of a file by its extension; unknown ones download as bytes.
 * @param {string} rel */
export function contentTypeFor(rel) {
  const ext = path.posix.extname(rel).slice(1).toLowerCase();
  return contentTypes[ext] ?? 'application/octet-stream';
}

/** Content types a release stores gzip-compressed: text, and the text formats that do not
 * say text/ (JSON, XML, SVG, the web manifest). Images and fonts are compressed already. */
const compressibleType = /^(text\/|application\/(json|xml|manifest\+json|javascript)|image\/svg\+xml)/;

/** How a file of the export is stored: 'gzip' for a compressible one, or null (stored as
 * it is). Files under builds/ (latest.json, the meta files) stay raw: the edges, the
 * build and the tools read them as files.
 * @param {string} rel
 * @returns {'gzip' | null} */
export function storedEncoding(rel) {
  if (rel.startsWith('builds/')) return null;
  return compressibleType.test(contentTypeFor(rel)) ? 'gzip' : null;
}

/** gzip, level 9: the same bytes always give the same gzip (no name or time in the header),
 * so a file's stored form depends on its bytes alone. */
const GZIP = { level: 9 };
const gzipAsync = promisify(gzip);

/** A file's gzip as a release stores it (the bench measures the release with it too).
 * @param {Buffer} body */
export const gzipStored = (body) => gzipSync(body, GZIP);

/** The bytes to store for a file whose manifest entry is `entry`: its gzip when the entry
 * says so, else the bytes as they are.
 * @param {{ contentEncoding?: string }} entry
 * @param {Buffer} body the raw bytes
 * @returns {Promise<Buffer>} */
export async function storedBody(entry, body) {
  if (!entry.contentEncoding) return body;
  if (entry.contentEncoding !== 'gzip') throw new Error(`unknown content encoding ${entry.contentEncoding}`);
  return gzipAsync(body, GZIP);
}

/** How many bytes of gzip readExport keeps for the release to upload (a 3,000-product
 * export is about 52 MB as stored); past it, the release compresses again what it uploads. */
export const STORED_CACHE_BYTES = 256_000_000;

/** The bytes a file takes where it is published: storedSize when it is stored compressed.
 * @param {{ size: number, storedSize?: number }} entry */
export const storedSizeOf = (entry) => entry.storedSize ?? entry.size;

/** Whether two manifest entries name the same stored object: the same bytes, stored the
 * same way (a record saved before gzip storage has no contentEncoding, so its files differ
 * from the same bytes stored compressed, and are uploaded again in the new form).
 * @param {{ sha256: string, contentEncoding?: string } | undefined} a
 * @param {{ sha256: string, contentEncoding?: string } | undefined} b */
export const sameStored = (a, b) => !!a && !!b && a.sha256 === b.sha256 && (a.contentEncoding ?? null) === (b.contentEncoding ?? null);

/** Build ids name files and KVS keys, so they must stay plain. */
const safeId = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const latestPath = 'builds/latest.json';
/** @param {string} id */
export const metaPath = (id) => `builds/meta/${id}.json`;

/** The body of builds/latest.json for a build: the build writes it, a rollback rewrites it.
 * @param {{ id: string, timestamp: number }} build */
export const latestBody = ({ id, timestamp }) => Buffer.from(JSON.stringify({ id, timestamp }));

/** Reads a JSON file of the export, recording a problem instead of throwing.
 * @param {string} dir
 * @param {string} rel
 * @param {string[]} problems
 * @returns {any} */
function readJson(dir, rel, problems) {
  const file = path.join(dir, rel);
  if (!existsSync(file)) {
    problems.push(`${rel} is missing`);
    return null;
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    problems.push(`${rel} is not JSON (${err.message})`);
    return null;
  }
}

/** Checks a meta file's route rules: the edge and the KVS need all three fields.
 * @param {unknown} list
 * @param {string} rel
 * @param {string[]} problems */
function checkRedirects(list, rel, problems) {
  if (!Array.isArray(list)) return problems.push(`${rel} has no redirects list`);
  list.forEach((/** @type {any} */ r, i) => {
    if (typeof r?.source !== 'string' || !r.source.startsWith('/') || typeof r.target !== 'string' || !Number.isInteger(r.status)) {
      problems.push(`${rel} redirects[${i}] needs a source path, a target and a status`);
    }
  });
}

/** A sitemap shard's page paths: each <loc> without the site address.
 * @param {string} xml
 * @param {string} siteUrl
 * @returns {string[]} */
export function sitemapPages(xml, siteUrl) {
  const unescape = (/** @type {string} */ s) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => {
    const loc = unescape(/** @type {string} */ (m[1]));
    return loc.startsWith(siteUrl) ? loc.slice(siteUrl.length) : new URL(loc).pathname;
  });
}

/** A sitemap shard of the export (build.mjs writeSitemaps), not the index. */
const sitemapShard = /^sitemaps\/sitemap-\d+\.xml$/;

/** Every file under dir as a path relative to it with / separators, sorted.
 * @param {string} dir
 * @returns {string[]} */
export function listRelative(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** sha256 of a buffer, hex.
 * @param {Buffer} buf */
export const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

/** A file's manifest entry: its hash and size, the headers it is published with, and for a
 * compressible file its encoding and stored size. `stored` is the file's gzip when the
 * caller has it (readExport compresses off the main thread).
 * @param {string} rel
 * @param {Buffer} body
 * @param {Buffer} [stored]
 * @returns {ManifestEntry} */
export function manifestEntry(rel, body, stored) {
  /** @type {ManifestEntry} */
  const entry = { sha256: sha256(body), size: body.length, cacheControl: cacheControlFor(rel), contentType: contentTypeFor(rel) };
  const encoding = storedEncoding(rel);
  if (encoding) {
    entry.contentEncoding = encoding;
    entry.storedSize = (stored ?? gzipStored(body)).length;
  }
  return entry;
}

/** Validates an export and answers its build and manifest:
 * { dir, id, timestamp, redirects, site: { siteUrl, firebaseProjectId } (as the build
 * recorded them in the meta file), files: { path: { sha256, size, cacheControl, contentType,
 * contentEncoding?, storedSize? } }, count, bytes, storedBytes }.
 * Throws one message listing every problem, so nothing is published from a broken export.
 * inspect(path, body), if given, sees every file's bytes as they are read (the release's
 * scan for local addresses, release-checks.mjs).
 * @param {string} dir
 * @param {{ inspect?: (rel: string, body: Buffer) => void }} [options]
 * @returns {Promise<Export>} */
export async function readExport(dir, { inspect } = {}) {
  const abs = path.resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    throw new Error(`export ${dir} is not a folder: build the site first (scripts/build.mjs) or pass --export DIR`);
  }
  /** @type {string[]} */
  const problems = [];
  for (const page of ['index.html', '404.html']) {
    if (!existsSync(path.join(abs, page))) problems.push(`${page} is missing`);
  }
  const latest = readJson(abs, latestPath, problems);
  let meta = null;
  if (latest) {
    if (typeof latest.id !== 'string' || !safeId.test(latest.id)) problems.push(`${latestPath} has no usable build id`);
    else if (!Number.isFinite(latest.timestamp)) problems.push(`${latestPath} has no timestamp`);
    else {
      meta = readJson(abs, metaPath(latest.id), problems);
      if (meta && meta.id !== latest.id) problems.push(`${metaPath(latest.id)} names build ${meta.id}`);
      if (meta) checkRedirects(meta.redirects, metaPath(latest.id), problems);
    }
  }
  const rels = listRelative(abs);
  if (latest?.id) {
    // Only this build's own route rules and latest.json belong under builds/: anything
    // else there would be published as if it were part of this build.
    for (const rel of rels.filter((r) => r.startsWith('builds/'))) {
      if (rel !== latestPath && rel !== metaPath(latest.id)) problems.push(`${rel} does not belong to build ${latest.id}`);
    }
  }
  if (problems.length) throw new Error(`export ${dir} cannot be published: ${problems.join('; ')}`);

  /** @type {Record<string, ManifestEntry>} */
  const files = {};
  /** @type {Record<string, string>} */
  const products = {};
  /** @type {string[]} */
  const pages = [];
  let bytes = 0;
  let storedBytes = 0;
  /** @type {Map<string, Buffer>} */
  const storedBodies = new Map();
  let cached = 0;
  await mapLimit(rels, CONCURRENCY, async (rel) => {
    const body = await readFile(path.join(abs, rel));
    const stored = storedEncoding(rel) ? await gzipAsync(body, GZIP) : undefined;
    files[rel] = manifestEntry(rel, body, stored);
    if (stored && cached + stored.length <= STORED_CACHE_BYTES) {
      storedBodies.set(rel, stored);
      cached += stored.length;
    }
    const sku = productSkuOf(rel, body);
    if (sku) products[sku] = `/${path.posix.dirname(rel)}/`;
    if (sitemapShard.test(rel)) pages.push(...sitemapPages(body.toString('utf8'), meta.siteUrl ?? ''));
    inspect?.(rel, body);
    bytes += body.length;
    storedBytes += storedSizeOf(files[rel]);
  });
  const sorted = Object.fromEntries(rels.map((r) => [r, files[r]]));
  return {
    dir: abs,
    id: latest.id,
    timestamp: latest.timestamp,
    redirects: meta.redirects,
    site: { siteUrl: meta.siteUrl, firebaseProjectId: meta.firebaseProjectId },
    files: sorted,
    products: Object.fromEntries(Object.entries(products).sort(([a], [b]) => (a < b ? -1 : 1))),
    meta,
    ...(meta.inputs && { inputs: meta.inputs }),
    pages: [...new Set(pages)].sort(),
    count: rels.length,
    bytes,
    storedBytes,
    storedBodies,
  };
}
