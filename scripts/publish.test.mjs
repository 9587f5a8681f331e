// @ts-check
// The release plan run against the dir target: files, cache classification, the order of
// writes, diffing between builds, clean up, rollback, and recovery from a release that
// stopped half-way. Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { gunzipSync } from 'node:zlib';
import { CACHE_IMMUTABLE, CACHE_NEVER, CACHE_SHORT, readExport, sha256 } from './export-manifest.mjs';
import { KEEP_EDGE_RULES_OF, PHASE, describePlan, emptyState, executePlan, planRelease, publishExport, rollback } from './publish.mjs';
import { createDirTarget } from './target-dir.mjs';
import { at, buildA, buildB, lastAt, read, recording, scratch, storedForm, writeExport } from './release-fixtures.mjs';

const quiet = () => {};
/** @typedef {import('./target-state.mjs').Target} Target */

const tmpFiles = (/** @type {string} */ root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tmp'));
const site = (/** @type {string} */ root) => path.join(root, 'site');

/** Publishes a fixture build to the dir target at root, recording the writes.
 * @param {string} root
 * @param {string} exportDir
 * @param {(target: Target) => Target} [wrap] changes the target first */
async function publish(root, exportDir, wrap = (t) => t) {
  const rec = recording(wrap(createDirTarget(root)));
  const record = await publishExport({ exportDir, target: rec.target, log: quiet });
  return { record, events: rec.events };
}

test('publishing to a dir target copies every file and records its manifest', async (t) => {
  const dir = scratch(t);
  const exp = writeExport(path.join(dir, 'export-a'), buildA);
  const root = path.join(dir, 'release');
  const { record } = await publish(root, exp.dir);

  for (const [rel, body] of Object.entries(exp.files)) assert.equal(read(site(root), rel), body, rel);
  const saved = JSON.parse(readFileSync(path.join(root, 'releases', `${buildA.id}.json`), 'utf8'));
  assert.deepEqual(saved, record);
  assert.equal(saved.timestamp, buildA.timestamp);
  assert.deepEqual(Object.keys(saved.files).sort(), Object.keys(exp.files).sort());
  assert.equal(saved.files['_next/static/chunks/a1b2c3.js'].cacheControl, CACHE_IMMUTABLE);
  assert.equal(saved.files['builds/latest.json'].cacheControl, CACHE_NEVER);
  for (const rel of [
    'index.html',
    'outlet/r/balloons/_payload.json',
    'outlet/r/balloons/index.txt',
    `builds/meta/${buildA.id}.json`,
    'sitemap.xml',
    'robots.txt',
    'icon.svg',
  ]) {
    assert.equal(saved.files[rel].cacheControl, CACHE_SHORT, rel);
  }
  assert.equal(saved.files['outlet/r/balloons/index.html'].contentType, 'text/html; charset=utf-8');
  assert.equal(saved.files['outlet/r/balloons/index.txt'].contentType, 'text/plain; charset=utf-8');
  // Compressible files are stored gzip-compressed, as {path}.gz and nothing else, with the
  // raw bytes' hash and size in the manifest; builds/ and images stay raw.
  for (const rel of [
    'index.html',
    'outlet/r/balloons/index.html',
    'outlet/r/balloons/index.txt',
    'outlet/r/balloons/_payload.json',
    'sitemap.xml',
    'icon.svg',
    '_next/static/chunks/a1b2c3.js',
  ]) {
    assert.equal(storedForm(site(root), rel), 'gzip', rel);
    const gz = readFileSync(path.join(site(root), `${rel}.gz`));
    const raw = exp.files[rel] ?? '';
    assert.equal(gunzipSync(gz).toString('utf8'), raw, rel);
    assert.deepEqual(
      [saved.files[rel].sha256, saved.files[rel].size, saved.files[rel].contentEncoding, saved.files[rel].storedSize],
      [sha256(Buffer.from(raw)), Buffer.byteLength(raw), 'gzip', gz.length],
      rel,
    );
  }
  for (const rel of ['builds/latest.json', `builds/meta/${buildA.id}.json`]) assert.equal(storedForm(site(root), rel), 'raw', rel);
  // Every published byte is kept content-addressed (the compressed form as {sha256}.gz),
  // and nothing half-done is left behind.
  for (const e of Object.values(saved.files)) assert.ok(existsSync(path.join(root, 'versions', e.sha256 + (e.contentEncoding ? '.gz' : ''))));
  assert.deepEqual(readdirSync(path.join(root, 'releases', 'pending')), []);
  assert.deepEqual(tmpFiles(root), []);
  // Publishing the same build again rewrites its meta and latest.json with the same bytes.
  await publish(root, exp.dir);
  assert.deepEqual(tmpFiles(root), []);
});

test('writes happen in the release order: hashed assets, pages, meta, latest, manifest, clean up', async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  await publish(root, writeExport(path.join(dir, 'a'), buildA).dir);
  const { events } = await publish(root, writeExport(path.join(dir, 'b'), buildB).dir);

  /** @typedef {(path: string) => boolean} PathTest */
  const endOf = (/** @type {PathTest} */ pred) => lastAt(events, (e) => e.startsWith('end put ') && pred(e.slice(8)));
  const startOf = (/** @type {PathTest} */ pred) => at(events, (e) => e.startsWith('start put ') && pred(e.slice(10)));
  /** @type {PathTest} */
  const hashed = (p) => p.startsWith('_next/static/');
  /** @type {PathTest} */
  const page = (p) => !hashed(p) && !p.startsWith('builds/');
  /** @type {PathTest} */
  const meta = (p) => p.startsWith('builds/meta/');
  /** @type {PathTest} */
  const latest = (p) => p === 'builds/latest.json';
  assert.ok(endOf(hashed) >= 0 && startOf(page) > endOf(hashed), 'pages start after every hashed asset is in place');
  assert.ok(startOf(meta) > endOf(page), 'the meta file follows the pages');
  assert.ok(startOf(latest) > endOf(meta), 'latest.json follows the meta file');
  assert.ok(at(events, `start save ${buildB.id}`) > endOf(latest), 'the manifest is saved after latest.json');
  const deleted = at(events, (e) => e.startsWith('delete '));
  assert.ok(deleted > endOf(latest), 'a removed page is deleted only after latest.json');
  assert.equal(
    endOf(latest),
    lastAt(events, (e) => e.startsWith('end put ')),
    'latest.json is the last file written',
  );
});

test("a second build keeps the first build's hashed assets, skips unchanged pages and deletes removed ones", async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  await publish(root, writeExport(path.join(dir, 'a'), buildA).dir);
  const { events } = await publish(root, writeExport(path.join(dir, 'b'), buildB).dir);
  const puts = events.filter((e) => e.startsWith('end put ')).map((e) => e.slice(8));

  assert.equal(
    read(site(root), '_next/static/chunks/a1b2c3.js'),
    buildA.files['_next/static/chunks/a1b2c3.js'],
    'an open tab of build A still loads its chunk',
  );
  assert.ok(!puts.includes('_next/static/css/a1b2c3.css'), 'a hashed asset already there is not uploaded again');
  assert.ok(puts.includes('_next/static/chunks/d4e5f6.js'));
  assert.ok(!puts.includes('blog/index.html') && !puts.includes('outlet/r/balloons/_payload.json'), 'unchanged pages are skipped');
  assert.ok(puts.includes('outlet/r/balloons/index.html') && puts.includes('outlet/r/new-range/index.html'));
  assert.deepEqual(events.filter((e) => e.startsWith('delete ')).sort(), ['delete outlet/r/retired/_payload.json', 'delete outlet/r/retired/index.html']);
  assert.ok(!existsSync(path.join(site(root), 'outlet/r/retired')), "the removed page's folder goes too");
  assert.ok(existsSync(path.join(site(root), `builds/meta/${buildA.id}.json`)), 'meta files of earlier builds are kept');
  assert.equal(read(site(root), 'outlet/r/balloons/index.html'), '<h1>balloons v2</h1>');
  assert.deepEqual(JSON.parse(read(site(root), 'builds/latest.json')), { id: buildB.id, timestamp: buildB.timestamp });
});

test("rollback restores the first build's pages and latest.json, and refuses an unknown id", async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  const a = writeExport(path.join(dir, 'a'), buildA);
  await publish(root, a.dir);
  await publish(root, writeExport(path.join(dir, 'b'), buildB).dir);

  await assert.rejects(
    rollback({ target: createDirTarget(root), id: '20250101T000000Z-ffffff', log: quiet }),
    new RegExp(`never published .*known builds: .*${buildA.id}.*${buildB.id}|never published .*known builds: .*${buildB.id}.*${buildA.id}`),
  );

  const rec = recording(createDirTarget(root));
  await rollback({ target: rec.target, id: buildA.id, log: quiet });
  for (const [rel, body] of Object.entries(a.files)) assert.equal(read(site(root), rel), body, rel);
  assert.deepEqual(JSON.parse(read(site(root), 'builds/latest.json')), { id: buildA.id, timestamp: buildA.timestamp });
  assert.equal(read(site(root), 'builds/latest.json'), a.files['builds/latest.json'], 'byte for byte as the build wrote it');
  assert.ok(!existsSync(path.join(site(root), 'outlet/r/new-range/index.html')), 'a page only build B had is gone');
  assert.ok(storedForm(site(root), '_next/static/chunks/d4e5f6.js'), "build B's hashed assets stay for its open tabs");
  const restored = rec.events.filter((e) => e.startsWith('end restore ')).map((e) => e.slice(12));
  assert.ok(restored.includes('outlet/r/retired/index.html') && restored.includes('outlet/r/balloons/index.html'));
  assert.ok(!restored.includes('blog/index.html'), 'files already right are left alone');
  const latest = at(rec.events, 'end put builds/latest.json');
  assert.ok(latest > lastAt(rec.events, (e) => e.startsWith('end restore ')), 'latest.json is written after every restore');

  // And forward again: build B is still restorable.
  await rollback({ target: createDirTarget(root), id: buildB.id, log: quiet });
  assert.equal(read(site(root), 'outlet/r/balloons/index.html'), '<h1>balloons v2</h1>');
  assert.ok(!existsSync(path.join(site(root), 'outlet/r/retired/index.html')));
  assert.deepEqual(tmpFiles(root), [], 'restoring a file that is already that version leaves no temporary file');
});

test('a release that stopped half-way is repaired by the next one', async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  const a = writeExport(path.join(dir, 'a'), buildA);
  await publish(root, a.dir);
  // Build B's run dies just before latest.json: pages of B are live under build A's id.
  /** @param {Target} target @returns {Target} */
  const failing = (target) => ({
    ...target,
    put: async (rel, body, entry) => {
      if (rel === 'builds/latest.json') throw new Error('connection lost');
      return target.put(rel, body, entry);
    },
  });
  await assert.rejects(publish(root, writeExport(path.join(dir, 'b'), buildB).dir, failing), /connection lost/);
  assert.equal(read(site(root), 'outlet/r/balloons/index.html'), '<h1>balloons v2</h1>');

  const state = await createDirTarget(root).state();
  assert.equal(state.current?.id, buildA.id);
  assert.deepEqual(
    state.unfinished.map((u) => u.id),
    [buildB.id],
  );
  // Publishing build A again must put back what B's run overwrote, though A's manifest
  // says those files are already current, and delete what B's run added.
  await publish(root, a.dir);
  for (const [rel, body] of Object.entries(a.files)) assert.equal(read(site(root), rel), body, rel);
  assert.ok(!existsSync(path.join(site(root), 'outlet/r/new-range/index.html')));
  assert.deepEqual((await createDirTarget(root).state()).unfinished, []);
});

test('with an edge (aws), route rules go to the KVS after the meta file, then the CDN is invalidated, then latest.json', async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  /** @type {{ id?: string, rules?: { key: string, value: string }[], keep?: string[] }[]} */
  const calls = [];
  /** @param {Target} target @returns {Target} */
  const withEdge = (target) => ({
    ...target,
    edge: {
      switchTo: async (id, rules) => void calls.push({ id, rules }),
      invalidate: async () => {},
      prune: async (keep) => (calls.push({ keep }), 0),
    },
  });
  await publish(root, writeExport(path.join(dir, 'a'), buildA).dir, withEdge);
  const { events } = await publish(root, writeExport(path.join(dir, 'b'), buildB).dir, withEdge);

  assert.ok(at(events, `start edge ${buildB.id}`) > at(events, `end put builds/meta/${buildB.id}.json`));
  assert.ok(at(events, 'start invalidate /*') > at(events, `end edge ${buildB.id}`));
  assert.ok(at(events, 'start put builds/latest.json') > at(events, 'end invalidate /*'));
  assert.ok(at(events, (e) => e.startsWith('start prune-rules')) > at(events, 'end put builds/latest.json'));
  assert.deepEqual(calls[2].rules, [{ key: `r:${buildB.id}:/christmas/`, value: '{"target":"/outlet/r/wholesale-xmas/","status":301}' }]);
  assert.deepEqual(calls[3].keep, [buildB.id, buildA.id]);
});

test('the KVS keeps the rules of the 10 newest published builds and of the build made current', async () => {
  const exp = { id: 'new', timestamp: 100, redirects: [], files: {} };
  const releases = Array.from({ length: 12 }, (_, i) => ({ id: `old${i}`, timestamp: i, files: 1 }));
  /** The route rules the plan's clean up keeps. @param {import('./publish.mjs').Plan} plan */
  const keptRules = (plan) => {
    const cleanup = plan.phases.at(-1);
    assert.ok(cleanup?.name === PHASE.cleanup);
    return cleanup.keepEdgeRulesOf;
  };
  const keep = keptRules(planRelease(exp, { ...emptyState(), releases }));
  assert.equal(keep.length, KEEP_EDGE_RULES_OF);
  assert.deepEqual(keep, ['new', 'old11', 'old10', 'old9', 'old8', 'old7', 'old6', 'old5', 'old4', 'old3']);
  // Rolling back to an old build keeps its rules even though it is not among the newest.
  const back = planRelease({ ...exp, id: 'old0', timestamp: 0 }, { ...emptyState(), releases }, { kind: 'rollback' });
  assert.ok(keptRules(back).includes('old0'));
});

test('the plan lists the phases in order, grouped by Cache-Control and Content-Type', async (t) => {
  const dir = scratch(t);
  const exp = await readExport(writeExport(path.join(dir, 'a'), buildA).dir);
  const text = describePlan(planRelease(exp, emptyState('nothing there')), { target: 'none' });
  const order = [PHASE.hashed, PHASE.pages, PHASE.meta, PHASE.edge, PHASE.invalidate, PHASE.latest, PHASE.save, PHASE.cleanup];
  const positions = order.map((name) => text.indexOf(`. ${name}:`));
  assert.ok(
    positions.every((p) => p > 0),
    text,
  );
  assert.deepEqual(
    [...positions].sort((x, y) => x - y),
    positions,
  );
  assert.match(text, /2\. hashed assets: upload 2 files/);
  assert.match(text, /1 file .*public, max-age=31536000, immutable \| text\/css; charset=utf-8/);
  assert.match(text, /note: nothing there/);
  assert.match(text, /r:20260101T000000Z-aaaaaa:\/christmas\/ = \{"target":"\/outlet\/r\/wholesale-christmas\/","status":301\}/);
});

/** Turns a dir target's release folder into what the release code before gzip storage
 * left: every site file raw, its version raw under versions/{sha256}, and records whose
 * entries have no contentEncoding.
 * @param {string} root */
function asBeforeGzip(root) {
  for (const name of readdirSync(path.join(root, 'releases')).filter((n) => n.endsWith('.json'))) {
    const file = path.join(root, 'releases', name);
    const record = JSON.parse(readFileSync(file, 'utf8'));
    for (const [rel, e] of Object.entries(record.files)) {
      if (!e.contentEncoding) continue;
      const gz = path.join(site(root), `${rel}.gz`);
      if (existsSync(gz)) {
        writeFileSync(path.join(site(root), rel), gunzipSync(readFileSync(gz)));
        rmSync(gz);
      }
      const version = path.join(root, 'versions', `${e.sha256}.gz`);
      if (existsSync(version)) {
        writeFileSync(path.join(root, 'versions', e.sha256), gunzipSync(readFileSync(version)));
        rmSync(version);
      }
      delete e.contentEncoding;
      delete e.storedSize;
    }
    writeFileSync(file, JSON.stringify(record));
  }
}

test('a release over one saved before gzip storage stores every compressible file again, compressed; rollback across the change restores the raw files', async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  const a = writeExport(path.join(dir, 'a'), buildA);
  const b = writeExport(path.join(dir, 'b'), buildB);
  await publish(root, a.dir);
  asBeforeGzip(root);
  assert.equal(storedForm(site(root), 'blog/index.html'), 'raw');

  const { events, record } = await publish(root, b.dir);
  const puts = events.filter((e) => e.startsWith('end put ')).map((e) => e.slice(8));
  assert.ok(puts.includes('blog/index.html'), 'an unchanged page stored raw is written again, compressed');
  assert.ok(puts.includes('_next/static/css/a1b2c3.css'), 'so is a hashed asset the current record has raw');
  for (const [rel, body] of Object.entries(b.files)) {
    assert.equal(storedForm(site(root), rel), rel.startsWith('builds/') ? 'raw' : 'gzip', rel);
    assert.equal(read(site(root), rel), body, rel);
    assert.equal(record.files[rel].contentEncoding, rel.startsWith('builds/') ? undefined : 'gzip', rel);
  }
  assert.equal(storedForm(site(root), '_next/static/chunks/a1b2c3.js'), 'raw', "build A's chunk is kept as it was stored");

  // Back to the record without contentEncoding: its raw versions, no .gz twins left.
  await rollback({ target: createDirTarget(root), id: buildA.id, log: quiet });
  for (const [rel, body] of Object.entries(a.files)) {
    assert.equal(storedForm(site(root), rel), 'raw', rel);
    assert.equal(read(site(root), rel), body, rel);
  }
  assert.equal(storedForm(site(root), 'outlet/r/new-range/index.html'), null);
  // And forward again.
  await rollback({ target: createDirTarget(root), id: buildB.id, log: quiet });
  for (const [rel, body] of Object.entries(b.files)) {
    assert.equal(storedForm(site(root), rel), rel.startsWith('builds/') ? 'raw' : 'gzip', rel);
    assert.equal(read(site(root), rel), body, rel);
  }
  assert.deepEqual(tmpFiles(root), []);
});

test('removing a page removes it in either form', async (t) => {
  const dir = scratch(t);
  const root = path.join(dir, 'release');
  await publish(root, writeExport(path.join(dir, 'a'), buildA).dir);
  writeFileSync(path.join(site(root), 'outlet/r/retired/index.html'), 'a stale raw twin');
  rmSync(path.join(site(root), 'outlet/r/retired/_payload.json.gz'));
  writeFileSync(path.join(site(root), 'outlet/r/retired/_payload.json'), '{}');
  await createDirTarget(root).remove(['outlet/r/retired/index.html', 'outlet/r/retired/_payload.json']);
  assert.ok(!existsSync(path.join(site(root), 'outlet/r/retired')), 'both forms gone, and the folder');
});

test('without the gzip readExport kept, the release compresses what it uploads to the same bytes', async (t) => {
  const dir = scratch(t);
  const a = writeExport(path.join(dir, 'a'), buildA);
  const kept = path.join(dir, 'kept');
  await publish(kept, a.dir);
  const exp = await readExport(a.dir);
  assert.ok(exp.storedBodies?.has('index.html'));
  delete exp.storedBodies;
  const root = path.join(dir, 'release');
  const target = createDirTarget(root);
  await executePlan(planRelease(exp, await target.state()), target, { source: (p) => readFileSync(path.join(a.dir, p)), log: quiet });
  for (const rel of Object.keys(a.files)) {
    const name = storedForm(site(root), rel) === 'gzip' ? `${rel}.gz` : rel;
    assert.deepEqual(readFileSync(path.join(site(root), name)), readFileSync(path.join(site(kept), name)), rel);
  }
});
