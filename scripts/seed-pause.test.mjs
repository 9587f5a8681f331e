// @ts-check
// The seed on a busy machine (docs/local-store.md "Deadlines"): a store that stops
// answering for longer than the per-call deadline in the middle of the load (SIGSTOP of
// its JVM) does not stop the seed, which sends the calls again with back-off, says so on
// its progress line, and loads every item once. The store is this test's own DynamoDB
// Local, in memory on a free port: the shared one is never signalled.
// Run: node --test scripts/seed-pause.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { freePort, root, run, stopAll } from './lib.mjs';
import { dynamoRequest, startDynamoDBLocal } from './dynamodb-local.mjs';

const products = 1500;
const timeoutMs = 1000; // STORE_TIMEOUT_MS of the seed
const pauseMs = 3500; // how long the store is stopped: several per-call deadlines
const table = 'seed-pause';

/** Answers every item's pk and gsi2pk (its type) in table, through every page of a Scan. */
async function scanKeys(port) {
  const items = [];
  let start;
  do {
    const out = await dynamoRequest(port, 'Scan', {
      TableName: table,
      ProjectionExpression: 'pk, sk, gsi2pk',
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    items.push(...out.Items);
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

test('a seed rides out a store paused for longer than its per-call deadline and loads every item once', { timeout: 240_000 }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-seed-pause-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const store = await startDynamoDBLocal({ port, logFile: path.join(dir, 'dynamodb.log') });
  const pid = /** @type {number} */ (store.child.pid);
  t.diagnostic(`DynamoDB Local answered after ${store.seconds.toFixed(1)} s`);
  let paused = false;
  t.after(async () => {
    if (paused) process.kill(pid, 'SIGCONT');
    await stopAll();
  });
  const seedBin = path.join(dir, 'seed');
  const built = performance.now();
  await run('go', ['build', '-o', seedBin, './cmd/seed'], { cwd: path.join(root, 'functions') });
  t.diagnostic(`built the seed in ${((performance.now() - built) / 1000).toFixed(1)} s`);
  const seeded = performance.now();

  const seed = spawn(seedBin, ['-products', String(products), '-media', path.join(dir, 'media')], {
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}`,
      TABLE_NAME: table,
      AWS_REGION: 'eu-west-2',
      STORE_TIMEOUT_MS: String(timeoutMs),
      STORE_BATCH_BUDGET_MS: '60000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let pausedAt = '';
  const resumed = new Promise((/** @type {(v?: unknown) => void} */ resolve) => {
    seed.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
      // The first progress line: the load has begun and most of it is still to come.
      if (!pausedAt && /seed:\s+\d+% \(/.test(stdout)) {
        pausedAt = stdout.trim().split('\n').at(-1) ?? '';
        process.kill(pid, 'SIGSTOP');
        paused = true;
        setTimeout(() => {
          process.kill(pid, 'SIGCONT');
          paused = false;
          resolve();
        }, pauseMs);
      }
    });
  });
  seed.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => seed.on('exit', (c, s) => resolve(c ?? s)));
  t.diagnostic(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s, paused at "${pausedAt}" for ${pauseMs} ms`);
  assert.ok(pausedAt, `the seed finished before its first progress line:\n${stdout}`);
  await resumed;
  assert.equal(code, 0, `the seed failed:\n${stdout}\n${stderr}`);

  const retries = stdout.split('\n').filter((l) => /^seed: the store did not answer \w+ within 1s \(try \d+\); trying again in /.test(l));
  assert.ok(retries.length > 0, `the progress lines do not say the seed tried again:\n${stdout}`);
  t.diagnostic(`${retries.length} retry line(s), the first: ${retries[0]}`);

  const loaded = stdout.match(/seed: loaded (\d+) ranges, (\d+) categories, (\d+) products, (\d+) coupons and (\d+) price groups/);
  assert.ok(loaded, `no summary line:\n${stdout}`);
  const [ranges, categories, productCount, coupons, groups] = loaded.slice(1).map(Number);
  assert.equal(productCount, products);

  const items = await scanKeys(port);
  const keys = items.map((it) => `${it.pk.S}|${it.sk.S}`);
  assert.equal(new Set(keys).size, keys.length, 'a key is held twice');
  const count = (re) => items.filter((it) => re.test(it.pk.S)).length;
  const typed = (type) => items.filter((it) => it.gsi2pk?.S === `TYPE#${type}`).length;
  assert.equal(count(/^PRODUCT#/), products, 'product items');
  assert.equal(typed('PRODUCT'), products, 'product items listed by type');
  assert.equal(count(/^RANGE#/), ranges, 'range items');
  assert.equal(count(/^CATEGORY#/), categories, 'category items');
  assert.equal(count(/^COUPON#/), coupons, 'coupon items');
  assert.equal(count(/^PRICEGROUP$/), groups, 'price group items');
  assert.equal(count(/^META#SEED$/), 1, 'the seed marker');
  assert.equal(items.length, products + ranges + categories + coupons + groups + 1, `items in all: ${[...new Set(items.map((it) => it.pk.S.split('#')[0]))]}`);
});
