// @ts-check
// The blank Next app and the static server the bench measures it with
// (scripts/bench-blank.mjs). Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { gunzipSync } from 'node:zlib';
import { checkSameVersions, fileFor, resolvedVersion, serveStatic } from './bench-blank.mjs';
import { root } from './lib.mjs';
import { scratch } from './release-fixtures.mjs';

function writeOut(dir) {
  for (const [rel, body] of Object.entries({
    'index.html': '<h1>hello</h1>',
    '404.html': 'not here',
    'about.html': 'about',
    'x/index.html': 'x',
    '_next/static/chunks/a.js': 'console.log(1)',
  })) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
}

test('request paths to export files', (t) => {
  const dir = scratch(t);
  writeOut(dir);
  assert.equal(fileFor(dir, '/'), path.join(dir, 'index.html'));
  assert.equal(fileFor(dir, '/?v=1'), path.join(dir, 'index.html'));
  assert.equal(fileFor(dir, '/x/'), path.join(dir, 'x', 'index.html'));
  assert.equal(fileFor(dir, '/about'), path.join(dir, 'about.html'));
  assert.equal(fileFor(dir, '/_next/static/chunks/a.js'), path.join(dir, '_next', 'static', 'chunks', 'a.js'));
  assert.equal(fileFor(dir, '/missing'), null);
  assert.equal(fileFor(dir, '/../../etc/passwd'), null);
  assert.equal(fileFor(dir, '/%E0%A4%A'), null, 'a malformed escape');
});

test('the static server: gzip when asked, the shop headers, 404.html for the rest', async (t) => {
  const dir = scratch(t);
  writeOut(dir);
  const s = await serveStatic(dir);
  t.after(() => s.close());
  assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const home = await fetch(`${s.url}/`);
  assert.equal(home.status, 200);
  assert.equal(home.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(await home.text(), '<h1>hello</h1>');
  const js = await fetch(`${s.url}/_next/static/chunks/a.js`);
  assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const missing = await fetch(`${s.url}/nope/`);
  assert.equal(missing.status, 404);
  assert.equal(await missing.text(), 'not here');
  // Node's fetch decodes gzip itself: ask with a raw request to see the encoding.
  const http = await import('node:http');
  const raw = await new Promise((resolve, reject) => {
    http
      .get(`${s.url}/`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
  assert.equal(raw.encoding, 'gzip');
  assert.equal(gunzipSync(raw.body).toString(), '<h1>hello</h1>');
});

test('a folder under .bench resolves the same next and react as site/', (t) => {
  const dir = path.join(root, '.bench', `versions-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  t.after(async () => (await import('node:fs')).rmSync(dir, { recursive: true, force: true }));
  const v = checkSameVersions(dir);
  assert.equal(v.next, resolvedVersion(path.join(root, 'site'), 'next'));
  assert.match(v.react, /^\d+\.\d+\.\d+/);
});
