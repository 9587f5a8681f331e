// @ts-check
// A release to a local folder reads the catalogue from the local store (scripts/run's
// DynamoDB Local) unless told otherwise, as scripts/catalogue does, and refuses, as the seed
// does, to read a deployed table by accident.
// Run: node --test scripts/release-local-store.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import test from 'node:test';
import { root } from './lib.mjs';
import { scratch } from './release-fixtures.mjs';
import { localStoreEnv } from './release-checks.mjs';
import { main } from './release.mjs';

/** The environment without any store, release or AWS configuration of the machine running the tests. */
const bareEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !k.startsWith('RELEASE_') && !k.startsWith('AWS_') && !['DYNAMODB_ENDPOINT', 'DYNAMODB_PORT', 'TABLE_NAME'].includes(k),
  ),
);

test('localStoreEnv: no DYNAMODB_ENDPOINT is the local store; a loopback one is kept; any other is refused without allowAws', () => {
  assert.equal(localStoreEnv({}).env.DYNAMODB_ENDPOINT, 'http://127.0.0.1:8000');
  assert.match(localStoreEnv({}).note, /the local store http:\/\/127\.0\.0\.1:8000 \(table tradeshop\), as DYNAMODB_ENDPOINT is not set/);
  assert.equal(localStoreEnv({ DYNAMODB_PORT: '8123' }).env.DYNAMODB_ENDPOINT, 'http://127.0.0.1:8123');
  for (const endpoint of ['http://127.0.0.1:9000', 'http://localhost:8000', 'http://[::1]:8000']) {
    assert.equal(localStoreEnv({ DYNAMODB_ENDPOINT: endpoint }).env.DYNAMODB_ENDPOINT, endpoint);
  }
  for (const [endpoint, why] of /** @type {[string, RegExp][]} */ ([
    ['', /from AWS DynamoDB \(table shop-x\): DYNAMODB_ENDPOINT is set but empty/],
    ['https://dynamodb.eu-west-2.amazonaws.com', /DYNAMODB_ENDPOINT https:\/\/dynamodb\.eu-west-2\.amazonaws\.com is not a loopback address/],
    ['http://localhost.evil.example:8000', /is not a loopback address/],
    ['127.0.0.1:8000', /DYNAMODB_ENDPOINT "127\.0\.0\.1:8000" is not a URL/],
  ])) {
    const env = { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: 'shop-x' };
    assert.throws(
      () => localStoreEnv(env),
      (/** @type {any} */ err) => why.test(err.message) && /pass --allow-aws/.test(err.message),
      endpoint,
    );
    assert.equal(localStoreEnv(env, { allowAws: true }).env.DYNAMODB_ENDPOINT, endpoint);
  }
});

/** Runs main for a dir target with a build that records the environment it was given and
 * stops there (nothing is built or published). */
async function buildEnvOf(t, args, env) {
  const target = path.join(scratch(t), 'release');
  /** @type {NodeJS.ProcessEnv} */
  let seen = {};
  const stop = new Error('stopped after the build was called');
  const build = async ({ env: e }) => {
    seen = e;
    throw stop;
  };
  try {
    await main(['--target', `dir:${target}`, ...args], env, { shop: /** @type {any} */ ({}), build: /** @type {any} */ (build) });
  } catch (err) {
    if (err !== stop) throw err;
  }
  return seen;
}

test('a build for a dir target reads the local store when DYNAMODB_ENDPOINT is not set', async (t) => {
  assert.equal((await buildEnvOf(t, [], bareEnv)).DYNAMODB_ENDPOINT, 'http://127.0.0.1:8000');
  assert.equal((await buildEnvOf(t, [], { ...bareEnv, DYNAMODB_PORT: '8124' })).DYNAMODB_ENDPOINT, 'http://127.0.0.1:8124');
  assert.equal((await buildEnvOf(t, [], { ...bareEnv, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9001' })).DYNAMODB_ENDPOINT, 'http://127.0.0.1:9001');
  const remote = 'https://dynamodb.eu-west-2.amazonaws.com';
  assert.equal((await buildEnvOf(t, ['--allow-aws'], { ...bareEnv, DYNAMODB_ENDPOINT: remote })).DYNAMODB_ENDPOINT, remote);
});

test('a build for a dir target from a store that is not local is refused in one line before anything is built', async (t) => {
  await assert.rejects(buildEnvOf(t, [], { ...bareEnv, DYNAMODB_ENDPOINT: '' }), /refusing to build a local release from AWS DynamoDB/);
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'release.mjs'), '--target', `dir:${path.join(scratch(t), 'release')}`], {
    cwd: root,
    env: { ...bareEnv, DYNAMODB_ENDPOINT: 'https://dynamodb.eu-west-2.amazonaws.com' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(
    lines[0],
    /^release: refusing to build a local release from the store at https:\/\/dynamodb\.eu-west-2\.amazonaws\.com \(table tradeshop\): .* pass --allow-aws/,
  );
  assert.doesNotMatch(r.stdout, /snapshot of the catalogue/);
});

test('--allow-aws goes only with a dir target', async () => {
  await assert.rejects(
    main(['--target', 'aws', '--allow-aws'], bareEnv, { shop: /** @type {any} */ ({}), build: async () => assert.fail('built') }),
    /--allow-aws only goes with a dir target/,
  );
});
