// @ts-check
// The release CLI as a release engineer runs it: dry-runs write nothing and work offline,
// bad input is refused in one line before anything is built or written.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { root } from './lib.mjs';
import { buildA, buildB, realShop, realSite, scratch, snapshotTree, writeExport } from './release-fixtures.mjs';
import { main } from './release.mjs';
import { publishExport } from './publish.mjs';
import { createDirTarget } from './target-dir.mjs';

/** The environment without any release or AWS configuration of the machine running the tests. */
const bareEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RELEASE_') && !k.startsWith('AWS_')));

/** Runs the release command with args; answers { code, out, err }.
 * @param {string[]} args */
function release(args, env = bareEnv) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'release.mjs'), ...args], { cwd: root, env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Asserts a failed run: exit 1 and exactly one line on stderr matching re.
 * @param {{ code: number | null, out: string, err: string }} r
 * @param {RegExp} re */
function assertRefused(r, re) {
  assert.equal(r.code, 1, r.out + r.err);
  const lines = r.err.trim().split('\n');
  assert.equal(lines.length, 1, r.err);
  assert.match(lines[0], /^release: /);
  assert.match(lines[0], re);
}

const phasesInOrder = ['hashed assets', 'pages and payloads', 'route rules manifest', 'route rules at the edge', 'CDN invalidation', 'latest'];
/** Asserts that text names every phase of a release plan, in order. @param {string} text */
function assertPhasesInOrder(text) {
  const at = phasesInOrder.map((p) => text.search(new RegExp(`^\\d+\\. ${p}:`, 'm')));
  assert.ok(
    at.every((i) => i >= 0),
    text,
  );
  assert.deepEqual(
    [...at].sort((a, b) => a - b),
    at,
  );
}

test('a dry-run against a dir target writes nothing and plans against what the folder holds', (t) => {
  const dir = scratch(t);
  const target = path.join(dir, 'release');
  assert.equal(release(['--target', `dir:${target}`, '--export', writeExport(path.join(dir, 'a'), buildA).dir]).code, 0);
  const before = snapshotTree(dir);

  const b = writeExport(path.join(dir, 'b'), buildB);
  const afterExport = snapshotTree(dir);
  const r = release(['--target', `dir:${target}`, '--export', b.dir, '--dry-run']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(snapshotTree(dir), afterExport, 'the dry-run wrote nothing');
  assert.ok(before !== null && afterExport !== null && before.length < afterExport.length);
  assertPhasesInOrder(r.out);
  assert.match(r.out, new RegExp(`current build at the target: ${buildA.id}`));
  assert.match(r.out, /hashed assets: upload 1 file, .*\(1 already at the target, kept\)/);
  assert.match(r.out, /clean up: delete 2 files of build/);
  assert.match(r.out, /Dry-run: nothing was written/);

  const missing = path.join(dir, 'never-created');
  assert.equal(release(['--target', `dir:${missing}`, '--export', b.dir, '--dry-run']).code, 0);
  assert.equal(existsSync(missing), false);
});

test('a dry-run works offline: no target, or aws with no configuration, plans against an empty bucket', (t) => {
  const exp = writeExport(path.join(scratch(t), 'a'), buildA);
  const none = release(['--dry-run', '--export', exp.dir]);
  assert.equal(none.code, 0, none.err);
  assert.match(none.out, /no --target: planning against an empty bucket/);
  assertPhasesInOrder(none.out);
});

/** Runs the release in this process with the shop.json given (the CLI reads the
 * repository's, which holds placeholders); answers { code, out, err } as release() does.
 * @param {string[]} args
 * @param {import('./build.mjs').ShopConfig} shop */
async function releaseWith(args, shop, env = bareEnv) {
  /** @type {string[]} */
  const lines = [];
  const log = console.log;
  console.log = (...a) => lines.push(a.join(' '));
  try {
    await main(args, env, { shop });
    return { code: 0, out: lines.join('\n'), err: '' };
  } catch (err) {
    return { code: 1, out: lines.join('\n'), err: `release: ${String(err.message).replace(/\s*\n\s*/g, '; ')}\n` };
  } finally {
    console.log = log;
  }
}

test('a dry-run to aws of a safe export, with real shop details, prints the plan against an empty bucket offline', async (t) => {
  const exp = writeExport(path.join(scratch(t), 'a'), { ...buildA, site: realSite });
  const aws = await releaseWith(['--dry-run', '--export', exp.dir, '--target', 'aws', '--list'], realShop);
  assert.equal(aws.code, 0, aws.err);
  assert.match(aws.out, /no AWS configuration .*RELEASE_BUCKET.*: planning against an empty bucket/);
  assertPhasesInOrder(aws.out);
  // --list prints every file, here all 11 pages and payloads.
  for (const rel of Object.keys(buildA.files).filter((p) => !p.startsWith('_next/'))) assert.ok(aws.out.includes(`  ${rel}\n`), rel);
});

test('a release to aws (dry-run or not) refuses an unsafe export, naming every problem, before anything is read from AWS', async (t) => {
  const dir = scratch(t);
  const awsEnv = {
    ...bareEnv,
    RELEASE_BUCKET: 'b',
    RELEASE_DISTRIBUTION_ID: 'E123',
    RELEASE_KVS_ARN: 'arn:aws:cloudfront::1:key-value-store/x',
    AWS_REGION: 'eu-west-2',
  };
  /** @type {Record<string, [Partial<import('./release-fixtures.mjs').TestBuild>, typeof realShop, RegExp[]]>} */
  const cases = {
    'loopback SITE_URL': [
      { site: { ...realSite, siteUrl: 'http://127.0.0.1:8080' } },
      realShop,
      [/SITE_URL "http:\/\/127\.0\.0\.1:8080" of build .* is not an https address/, /SITE_URL "http:\/\/127\.0\.0\.1:8080" .* is a loopback address/],
    ],
    'https on localhost': [
      { site: { ...realSite, siteUrl: 'https://localhost:8443' } },
      realShop,
      [/SITE_URL "https:\/\/localhost:8443" .* is a loopback address/],
    ],
    'demo Firebase project': [
      { site: { ...realSite, firebaseProjectId: 'demo-tradeshop' } },
      realShop,
      [/the Firebase project "demo-tradeshop" of build .* is a demo project/],
    ],
    'Auth emulator address in a chunk': [
      { site: realSite, files: { '_next/static/chunks/auth.js': 'r.connectAuthEmulator(a,"http://127.0.0.1:9099",{})' } },
      realShop,
      [/the export holds the local address 127\.0\.0\.1:9099 .* in _next\/static\/chunks\/auth\.js/],
    ],
    'emulator on localhost in two pages': [
      { site: realSite, files: { 'a/index.html': 'localhost:9099', 'b/index.html': 'see localhost:9099.' } },
      realShop,
      [/local address localhost:9099 .* in a\/index\.html and 1 other file/],
    ],
    'emulator variable': [{ site: realSite, files: { 'x.js': 'FIREBASE_AUTH_EMULATOR_HOST' } }, realShop, [/names FIREBASE_AUTH_EMULATOR_HOST in x\.js/]],
    'no recorded settings': [{}, realShop, [/does not record its SITE_URL/, /does not record its Firebase project/]],
    'placeholder identity': [
      { site: realSite },
      { ...realShop, business: { ...realShop.business, vatNumber: 'GB000000000' }, bankTransfer: { ...realShop.bankTransfer, sortCode: '00-00-00' } },
      [/functions\/config\/shop\.json: business\.vatNumber "GB000000000" is a placeholder/, /bankTransfer\.sortCode "00-00-00" is a placeholder/],
    ],
  };
  for (const [name, [spoil, shop, expected]] of Object.entries(cases)) {
    const exp = writeExport(path.join(dir, name.replace(/\W+/g, '-')), { ...buildA, ...spoil, files: { ...buildA.files, ...spoil.files } });
    for (const args of [
      ['--dry-run', '--target', 'aws', '--export', exp.dir],
      ['--target', 'aws', '--export', exp.dir],
    ]) {
      const r = await releaseWith(args, shop, awsEnv);
      assertRefused(r, /^release: refusing to publish .* to aws(:s3:\/\/b)?: /);
      for (const re of expected) assert.match(r.err, re, `${name}: ${args.join(' ')}`);
      assert.doesNotMatch(r.out, /Release plan|hashed assets/, 'no plan is printed');
    }
  }

  // Everything at once: each problem named, not only the first.
  const all = writeExport(path.join(dir, 'all'), {
    ...buildA,
    site: { siteUrl: 'http://127.0.0.1:8080', firebaseProjectId: 'demo-tradeshop' },
    files: { ...buildA.files, 'index.html': '<a href="http://127.0.0.1:8080/">home</a>', '_next/static/chunks/auth.js': '"http://127.0.0.1:9099"' },
  });
  const r = await releaseWith(['--dry-run', '--target', 'aws', '--export', all.dir], {
    ...realShop,
    contact: { ...realShop.contact, email: 'trade@tradeshop.example' },
  });
  assertRefused(
    r,
    /not an https address.*is a loopback address.*is a demo project.*local address 127\.0\.0\.1:9099.*contact\.email "trade@tradeshop\.example" is an example address/,
  );
  assert.doesNotMatch(r.err, /local address 127\.0\.0\.1:8080/, 'the loopback SITE_URL is named once, as SITE_URL');

  // The CLI itself, with the repository's shop.json: exit 1, one line.
  assertRefused(release(['--dry-run', '--target', 'aws', '--export', all.dir]), /refusing to publish .*is a demo project/);
  // Without --target aws, the dry-run plans a local export as before.
  assert.equal(release(['--dry-run', '--export', all.dir]).code, 0);
});

test('a build for aws is refused before it starts when its settings are unsafe', async () => {
  const awsEnv = { ...bareEnv, RELEASE_BUCKET: 'b', RELEASE_DISTRIBUTION_ID: 'E123', RELEASE_KVS_ARN: 'arn:x', AWS_REGION: 'eu-west-2' };
  const r = await releaseWith(['--target', 'aws'], realShop, { ...awsEnv, SITE_URL: 'http://127.0.0.1:8080', AUTH_EMULATOR_URL: 'http://127.0.0.1:9099' });
  assertRefused(
    r,
    /^release: refusing to build a release for aws: SITE_URL "http:\/\/127\.0\.0\.1:8080" of this build is not an https address.*loopback.*Firebase project "demo-tradeshop" of this build is a demo project.*AUTH_EMULATOR_URL is set/,
  );
  assert.equal(r.out, '', 'nothing was built');
});

test('a broken export is refused before anything is written', (t) => {
  const dir = scratch(t);
  const target = path.join(dir, 'release');
  const broken = writeExport(path.join(dir, 'broken'), { ...buildA, files: { [`builds/meta/${buildA.id}.json`]: null } });
  assertRefused(release(['--target', `dir:${target}`, '--export', broken.dir]), new RegExp(`builds/meta/${buildA.id}\\.json is missing`));
  assert.equal(existsSync(target), false);
  assertRefused(release(['--dry-run', '--export', broken.dir]), /cannot be published/);
});

test('--target aws without its configuration names every missing variable before building', (t) => {
  const exp = writeExport(path.join(scratch(t), 'a'), buildA);
  const r = release(['--target', 'aws', '--export', exp.dir]);
  assertRefused(
    r,
    /RELEASE_BUCKET \(stack output SiteBucketName\), RELEASE_DISTRIBUTION_ID \(stack output DistributionId\), RELEASE_KVS_ARN \(stack output RouteRulesStoreArn\), AWS_REGION/,
  );
  assert.equal(r.out, '', 'nothing was built or published');
  const partial = release(['--target', 'aws'], { ...bareEnv, RELEASE_BUCKET: 'b', AWS_REGION: 'eu-west-2' });
  assertRefused(partial, /needs RELEASE_DISTRIBUTION_ID .*, RELEASE_KVS_ARN [^,]*$/);
});

test('--list-builds and --rollback on a dir target', (t) => {
  const dir = scratch(t);
  const target = `dir:${path.join(dir, 'release')}`;
  assert.equal(release(['--target', target, '--export', writeExport(path.join(dir, 'a'), buildA).dir]).code, 0);
  assert.equal(release(['--target', target, '--export', writeExport(path.join(dir, 'b'), buildB).dir]).code, 0);

  const list = release(['--target', target, '--list-builds']);
  assert.equal(list.code, 0, list.err);
  assert.match(list.out, new RegExp(`${buildB.id}  2026-01-02T00:00:00.000Z .*<- current\\n  ${buildA.id}  2026-01-01`));

  assertRefused(release(['--target', target, '--rollback', 'nope']), new RegExp(`build nope was never published .*known builds: ${buildB.id}, ${buildA.id}`));
  const plan = release(['--target', target, '--rollback', buildA.id, '--dry-run']);
  assert.equal(plan.code, 0, plan.err);
  assert.match(plan.out, new RegExp(`Rollback plan: make build ${buildA.id} current again`));
  assert.match(plan.out, /pages and payloads: restore \d+ files/);

  const back = release(['--target', target, '--rollback', buildA.id]);
  assert.equal(back.code, 0, back.err);
  assert.match(release(['--target', target, '--list-builds']).out, new RegExp(`${buildA.id} .*<- current`));
});

test('bad arguments are refused in one line', () => {
  assertRefused(release([]), /--target dir:PATH or --target aws is needed/);
  assertRefused(release(['--target', 's3://bucket']), /--target must be dir:PATH or aws/);
  assertRefused(release(['--target', 'dir:/tmp/x', '--bogus']), /bogus/);
  assertRefused(release(['--target', 'dir:/tmp/x', '--list']), /--list only goes with --dry-run/);
  assertRefused(release(['--target', 'dir:/tmp/x', '--full', '--export', 'site/out']), /--full only goes with a release that builds/);
});

test("a release's build is told the target's current release, and --full", async (t) => {
  const dir = scratch(t);
  const exp = writeExport(path.join(dir, 'a'), buildA);
  await publishExport({ exportDir: exp.dir, target: createDirTarget(path.join(dir, 'release')), log: () => {} });
  for (const full of [false, true]) {
    /** @type {any} */
    let told;
    const build = async (/** @type {any} */ options) => {
      told = options.release;
      throw new Error('built nothing');
    };
    const args = ['--target', `dir:${path.join(dir, 'release')}`, ...(full ? ['--full'] : [])];
    await assert.rejects(main(args, { ...bareEnv, DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }, { shop: realShop, build }), /built nothing/);
    assert.equal(told.current.id, buildA.id);
    assert.equal(told.unfinished, 0);
    assert.equal(told.full, full);
  }
});
