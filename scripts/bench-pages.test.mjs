// @ts-check
// The page, release folder and build-phase figures of the bench (scripts/bench-pages.mjs).
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { gzipSync } from 'node:zlib';
import { HUGO_BYTES, RELEASE_STORED_TARGET, childCpuSeconds, fileKind, folderSummary, median, pageFiles, pageSizes, tracePhases } from './bench-pages.mjs';
import { scratch } from './release-fixtures.mjs';

function write(dir, files) {
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
}

test('median of odd and even counts, ignoring what is not a number', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([5, NaN, 1, undefined, 3]), 3);
  assert.ok(Number.isNaN(median([])));
});

test("a page's files: its folder's files and non-page subfolders, not the pages below it", (t) => {
  const dir = scratch(t);
  write(dir, {
    'index.html': 'home',
    '_payload.json': '{}',
    '_next/static/chunks/a.js': 'x',
    'c/101/index.html': '<html>category</html>',
    'c/101/index.txt': 'rsc',
    'c/101/__next._tree.txt': 'tree',
    'c/101/_payload.json': '{"kind":"category"}',
    'c/101/segments/__PAGE__.txt': 'segment', // a folder of the page's own, no page in it
    'c/101/2/index.html': 'page two', // another page below it
    'c/101/2/index.txt': 'rsc 2',
  });
  assert.deepEqual(pageFiles(dir, '/c/101/'), ['__next._tree.txt', '_payload.json', 'index.html', 'index.txt', 'segments/__PAGE__.txt']);
  // At the root only the folder's own files: _next and the like are the site's.
  assert.deepEqual(pageFiles(dir, '/'), ['_payload.json', 'index.html']);
  // Fewer files (a lighter build) are measured the same way.
  const lean = scratch(t);
  write(lean, { 'p/index.html': 'only html' });
  assert.deepEqual(pageFiles(lean, '/p/'), ['index.html']);
  assert.throws(() => pageFiles(lean, '/missing/'), /no index\.html/);
});

test('page sizes: every file raw and gzip, the HTML, and the totals', (t) => {
  const dir = scratch(t);
  const html = '<html>' + 'card '.repeat(500) + '</html>';
  write(dir, { 'p/index.html': html, 'p/index.txt': 'rsc rsc rsc', 'p/_payload.json': '{"a":1}' });
  const s = pageSizes(dir, '/p/');
  assert.equal(s.path, '/p/');
  assert.equal(s.htmlBytes, Buffer.byteLength(html));
  assert.deepEqual(
    s.files.map((f) => f.name),
    ['_payload.json', 'index.html', 'index.txt'],
  );
  assert.equal(s.rawBytes, Buffer.byteLength(html) + 11 + 7);
  const html9 = gzipSync(html, { level: 9 }).length;
  assert.equal(s.files.find((f) => f.name === 'index.html')?.gzipBytes, html9);
  assert.equal(
    s.gzipBytes,
    s.files.reduce((n, f) => n + f.gzipBytes, 0),
  );
});

test('the release folder by kind of file, raw and as stored (compressible files gzip, level 9)', (t) => {
  const dir = scratch(t);
  const files = {
    'index.html': '12345',
    'p/index.html': '123',
    'p/index.txt': '12',
    'p/__next._full.txt': '1',
    'p/_payload.json': '1234',
    '_next/static/chunks/a.js': '123456',
    'robots.txt': '1',
    'builds/latest.json': '12',
    'icon.png': '1234567',
  };
  write(dir, files);
  const gz = (/** @type {string[]} */ ...rels) => rels.reduce((n, r) => n + gzipSync(files[r], { level: 9 }).length, 0);
  const s = folderSummary(dir);
  assert.equal(s.files, 9);
  assert.equal(s.bytes, 31);
  assert.deepEqual(s.kinds, {
    HTML: { files: 2, bytes: 8, storedBytes: gz('index.html', 'p/index.html') },
    'RSC (.txt)': { files: 2, bytes: 3, storedBytes: gz('p/index.txt', 'p/__next._full.txt') },
    'payloads (_payload.json)': { files: 1, bytes: 4, storedBytes: gz('p/_payload.json') },
    'assets (_next)': { files: 1, bytes: 6, storedBytes: gz('_next/static/chunks/a.js') },
    // robots.txt is stored gzip; builds/latest.json and the image as they are.
    other: { files: 3, bytes: 10, storedBytes: gz('robots.txt') + 2 + 7 },
  });
  assert.equal(
    s.storedBytes,
    Object.values(s.kinds).reduce((n, k) => n + k.storedBytes, 0),
  );
  assert.equal(fileKind('robots.txt'), 'other');
});

test("the stored release's target is twice Hugo's output for the same 3,000 products", () => {
  assert.equal(HUGO_BYTES, 68_000_000);
  assert.equal(RELEASE_STORED_TARGET, 136_000_000);
});

test("build phases from a next build trace: the last build's direct phases, nested ones not counted twice", () => {
  const span = (name, id, parentId, startS, seconds, traceId = 't2') => ({ name, id, parentId, traceId, timestamp: startS * 1e6, duration: seconds * 1e6 });
  const older = [span('next-build', 1, undefined, 0, 99, 't1'), span('static-generation', 2, 1, 1, 90, 't1')];
  const trace = [
    JSON.stringify(older),
    JSON.stringify([span('clean', 7, 1, 100, 2.5), span('run-turbopack', 14, 1, 103, 2), span('generate-buildid', 4, 1, 100, 0.0001)]),
    JSON.stringify([span('static-generation', 89, 1, 106, 40), span('next-export', 90, 1, 106.1, 39.9), span('check-page', 26, 23, 105, 19)]),
    '{"cut short',
    JSON.stringify([span('output-export-full-static-export', 96, 1, 147, 3), span('next-build', 1, undefined, 100, 51)]),
  ].join('\n');
  const r = tracePhases(trace);
  assert.ok(r);
  assert.equal(r.seconds, 51);
  assert.deepEqual(
    r.phases.map((p) => [p.name, p.seconds]),
    [
      ['clean', 2.5],
      ['run-turbopack', 2],
      ['static-generation', 40],
      ['output-export-full-static-export', 3],
    ],
  );
  assert.ok(Math.abs(r.otherSeconds - 3.5) < 1e-9);
  assert.equal(tracePhases('[]\n'), null);
});

test('CPU of waited-for children is a number of seconds on Linux', () => {
  const s = childCpuSeconds();
  if (process.platform === 'linux') assert.ok(s !== null && Number.isFinite(s) && s >= 0);
});
