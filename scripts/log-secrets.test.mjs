// @ts-check
// The e2e log check (scripts/log-secrets.mjs): a log of the contract's lines passes; a
// recorded password or ID token, any JWT-shaped string and an email's sentence anywhere in
// a line are each found, by line, without the secret in the message; recorded secrets are
// read from the JSON lines site/e2e/secrets.ts writes.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { checkLog, findLeaks, readSecrets } from './log-secrets.mjs';

/** An unsigned token as the Auth emulator mints it (alg none, empty signature). */
const b64 = (/** @type {object} */ o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: 'https://securetoken.google.com/demo-tradeshop', sub: 'uid123', email: 'e2e@shop.test' })}.`;
const otherToken = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'someone-else' })}.`;
const password = 'correct-horse-1';

const clean = [
  JSON.stringify({
    time: '2026-11-27T00:10:00Z',
    level: 'INFO',
    msg: 'request',
    request_id: 'r1',
    endpoint: 'orders',
    build: 'a1b2c3d',
    group: 'orders',
    status: 200,
    _aws: {
      Timestamp: 1795734763889,
      CloudWatchMetrics: [{ Namespace: 'TradeShop/local', Dimensions: [['endpoint'], ['group']], Metrics: [{ Name: 'Requests', Unit: 'Count' }] }],
    },
    Requests: 1,
  }),
  JSON.stringify({ time: '2026-11-27T00:10:01Z', level: 'INFO', msg: 'app error', endpoint: 'errors', build: 'a1b2c3d', user: 'ab'.repeat(32), message: 'x' }),
  'edge listening on 127.0.0.1:8080',
].join('\n');

test('a log of the contract lines holds nothing', () => {
  assert.deepEqual(findLeaks(clean, [{ kind: 'password', value: password }]), []);
});

test('each secret, any JWT and an email sentence are found by line, never shown', () => {
  const log = [
    clean,
    JSON.stringify({ msg: 'request', body: `{"token":"${token}"}` }),
    JSON.stringify({ msg: 'sign-in', detail: `password=${password}` }),
    JSON.stringify({ msg: 'cookie', value: otherToken }),
    JSON.stringify({ msg: 'email sent', text: 'Thank you for your order, Ann.\n\nOrder: X' }),
  ].join('\n');
  const secrets = [
    { kind: 'password', value: password },
    { kind: 'ID token', value: token },
  ];
  assert.deepEqual(findLeaks(log, secrets), [
    { line: 4, what: "a test account's ID token" },
    { line: 5, what: "a test account's password" },
    { line: 6, what: 'a JSON Web Token (an ID token or session cookie)' },
    { line: 7, what: `an email's text ("Thank you for your order")` },
  ]);
});

test('checkLog reads the recorded secrets and fails naming the lines, not the secrets', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-log-secrets-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const logFile = path.join(dir, 'edge.log');
  const secretsFile = path.join(dir, 'e2e-secrets.jsonl');

  writeFileSync(logFile, clean + '\n');
  assert.deepEqual(checkLog({ logFile, secretsFile }), { lines: 3, secrets: 0 }, 'no secrets file: only the JWT and email checks');

  writeFileSync(secretsFile, [password, password, token].map((value, i) => JSON.stringify({ kind: i < 2 ? 'password' : 'ID token', value })).join('\n') + '\n');
  assert.deepEqual(
    readSecrets(secretsFile).map((s) => s.kind),
    ['password', 'ID token'],
    'one of each value',
  );
  assert.deepEqual(checkLog({ logFile, secretsFile }), { lines: 3, secrets: 2 });

  writeFileSync(logFile, clean + '\n' + JSON.stringify({ msg: 'oops', password }) + '\n');
  assert.throws(
    () => checkLog({ logFile, secretsFile }),
    (/** @type {Error} */ err) => /line 4: a test account's password/.test(err.message) && !err.message.includes(password),
  );

  writeFileSync(secretsFile, JSON.stringify({ kind: 'password', value: 'abc' }) + '\n');
  assert.throws(() => readSecrets(secretsFile), /line 1 of .* is not a secret/);
  assert.throws(() => checkLog({ logFile: path.join(dir, 'none.log'), secretsFile }), /there is no log at/);
});
