// @ts-check
// Cache and content types of published files, and refusing exports that are not a whole
// build. Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { root } from './lib.mjs';
import {
  CACHE_IMMUTABLE,
  CACHE_NEVER,
  CACHE_SHORT,
  cacheControlFor,
  contentTypeFor,
  manifestEntry,
  readExport,
  sameStored,
  storedBody,
  storedEncoding,
} from './export-manifest.mjs';
import { buildA, scratch, writeExport } from './release-fixtures.mjs';

/** The export file a request path is served from (the edge's index.html rewrite). */
const fileOf = (/** @type {string} */ urlPath) => {
  const rel = urlPath.replace(/^\//, '');
  return rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
};

test("Cache-Control equals the shared edge test vectors' cacheHeaders", () => {
  /** @type {{ cacheHeaders: { path: string, cacheControl: string }[] }} */
  const vectors = JSON.parse(readFileSync(path.join(root, 'builds', 'edge-test-vectors.json'), 'utf8'));
  assert.ok(vectors.cacheHeaders?.length >= 3, 'edge-test-vectors.json lists cacheHeaders');
  for (const { path: p, cacheControl } of vectors.cacheHeaders) assert.equal(cacheControlFor(fileOf(p)), cacheControl, p);
  // And the table covers all three kinds, so a change to any of them is caught.
  assert.deepEqual(new Set(vectors.cacheHeaders.map((v) => v.cacheControl)), new Set([CACHE_IMMUTABLE, CACHE_NEVER, CACHE_SHORT]));
});

test('Cache-Control by kind of file', () => {
  assert.equal(cacheControlFor('_next/static/chunks/app-4f3a.js'), 'public, max-age=31536000, immutable');
  assert.equal(cacheControlFor('builds/latest.json'), 'no-store');
  for (const rel of [
    'index.html',
    'outlet/r/x/_payload.json',
    'builds/meta/b1.json',
    'outlet/r/x/index.txt',
    'sitemap.xml',
    'sitemaps/sitemap-1.xml',
    'robots.txt',
    'icon.svg',
    'favicon.ico',
  ]) {
    assert.equal(cacheControlFor(rel), 'public, max-age=0, s-maxage=60', rel);
  }
  // A path merely containing the prefix is not a hashed asset.
  assert.equal(cacheControlFor('blog/_next/static/x.js'), CACHE_SHORT);
});

test('Content-Type by extension, utf-8 on text', () => {
  const expected = {
    'a/index.html': 'text/html; charset=utf-8',
    'a/_payload.json': 'application/json; charset=utf-8',
    '_next/static/chunks/x.js': 'text/javascript; charset=utf-8',
    '_next/static/css/x.css': 'text/css; charset=utf-8',
    'a/__next._full.txt': 'text/plain; charset=utf-8',
    'sitemap.xml': 'application/xml; charset=utf-8',
    'quick-order-sample.csv': 'text/csv; charset=utf-8',
    'icon.svg': 'image/svg+xml; charset=utf-8',
    'favicon.ico': 'image/x-icon',
    'a.png': 'image/png',
    'a.JPG': 'image/jpeg',
    'a.webp': 'image/webp',
    '_next/static/media/f.woff2': 'font/woff2',
    'manifest.webmanifest': 'application/manifest+json; charset=utf-8',
    '_next/static/chunks/x.js.map': 'application/json; charset=utf-8',
    LICENSE: 'application/octet-stream',
    'a.bin': 'application/octet-stream',
  };
  for (const [rel, type] of Object.entries(expected)) assert.equal(contentTypeFor(rel), type, rel);
});

test('the manifest hashes every file', async (t) => {
  const exp = await readExport(writeExport(path.join(scratch(t), 'a'), buildA).dir);
  assert.equal(exp.id, buildA.id);
  assert.equal(exp.count, Object.keys(buildA.files).length + 4);
  assert.deepEqual(exp.redirects, buildA.redirects);
  // sha256 and size are the raw bytes'; a compressible file is stored gzip (level 9).
  assert.deepEqual(exp.files['robots.txt'], {
    sha256: createHash('sha256').update('User-agent: *').digest('hex'),
    size: 13,
    cacheControl: CACHE_SHORT,
    contentType: 'text/plain; charset=utf-8',
    contentEncoding: 'gzip',
    storedSize: gzipSync('User-agent: *', { level: 9 }).length,
  });
  assert.equal(exp.files['builds/latest.json'].cacheControl, CACHE_NEVER);
  assert.equal(exp.files['builds/latest.json'].contentEncoding, undefined, 'builds/ stays raw');
  assert.equal(exp.files[`builds/meta/${buildA.id}.json`].contentEncoding, undefined, 'builds/ stays raw');
  for (const rel of [
    'index.html',
    'outlet/r/balloons/index.txt',
    'outlet/r/balloons/_payload.json',
    'sitemap.xml',
    'icon.svg',
    '_next/static/chunks/a1b2c3.js',
  ]) {
    assert.equal(exp.files[rel].contentEncoding, 'gzip', rel);
  }
  const stored = Object.values(exp.files).reduce((n, e) => n + (e.storedSize ?? e.size), 0);
  assert.equal(exp.storedBytes, stored);
});

test('compressible files by content type: text, JSON, JS, CSS, SVG, XML, the web manifest; not images, fonts or builds/', async () => {
  for (const rel of [
    'a/index.html',
    'a/index.txt',
    'a/_payload.json',
    'x.js',
    'x.css',
    'icon.svg',
    'sitemap.xml',
    'manifest.webmanifest',
    'robots.txt',
    'x.js.map',
    'sample.csv',
  ]) {
    assert.equal(storedEncoding(rel), 'gzip', rel);
  }
  for (const rel of ['builds/latest.json', 'builds/meta/b1.json', 'a.png', 'a.jpg', 'a.webp', 'favicon.ico', 'font.woff2', 'blob.bin']) {
    assert.equal(storedEncoding(rel), null, rel);
  }
  // Deterministic: the same bytes give the same gzip, which decodes to them.
  const body = Buffer.from('<h1>card</h1>'.repeat(100));
  const entry = manifestEntry('p/index.html', body);
  const [one, two] = [await storedBody(entry, body), await storedBody(entry, body)];
  assert.deepEqual(one, two);
  assert.equal(one.length, entry.storedSize);
  assert.deepEqual(gunzipSync(one), body);
  const png = manifestEntry('a.png', body);
  assert.equal(await storedBody(png, body), body, 'an image is stored as it is');
  // A record saved before gzip storage names the same bytes stored another way.
  const { contentEncoding, storedSize, ...old } = entry;
  assert.ok(contentEncoding && storedSize);
  assert.ok(sameStored(entry, { ...entry }));
  assert.ok(!sameStored(entry, old));
  assert.ok(!sameStored(entry, undefined));
});

test('a broken export is refused with every problem named', async (t) => {
  const dir = scratch(t);
  const noMeta = writeExport(path.join(dir, 'no-meta'), { ...buildA, files: { ...buildA.files, [`builds/meta/${buildA.id}.json`]: null } });
  await assert.rejects(readExport(noMeta.dir), new RegExp(`builds/meta/${buildA.id}\\.json is missing`));

  const noPages = writeExport(path.join(dir, 'no-pages'), { ...buildA, files: { 'index.html': null, '404.html': null } });
  await assert.rejects(readExport(noPages.dir), /index\.html is missing; 404\.html is missing/);

  const badLatest = writeExport(path.join(dir, 'bad-latest'), { ...buildA, files: { 'builds/latest.json': '{"id":' } });
  await assert.rejects(readExport(badLatest.dir), /builds\/latest\.json is not JSON/);

  const foreign = writeExport(path.join(dir, 'foreign'), { ...buildA, files: { 'builds/meta/other.json': '{}' } });
  await assert.rejects(readExport(foreign.dir), /builds\/meta\/other\.json does not belong to build/);

  await assert.rejects(readExport(path.join(dir, 'nothing-here')), /is not a folder/);
});
