// @ts-check
// stripe-mock as the run, test and fault commands start it (scripts/stripe-mock.mjs): on
// 127.0.0.1 only (its HTTPS listener too, which by default takes *:12112), at the port
// given, answering stripe-go's requests; and the Stripe environment the local edge gets:
// the documented local defaults, the caller's key where set, and no other STRIPE_*
// variable of the caller's.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import test from 'node:test';
import { freePort, root, stopAll } from './lib.mjs';
import { portVariables, variables } from './run.mjs';
import { LOCAL_STRIPE_ENV, startStripeMock, stripeEnv, stripeMockArgs, unsetOtherStripeVariables } from './stripe-mock.mjs';

test('stripe-mock listens for HTTP on 127.0.0.1 at the port, and for HTTPS on loopback at a port the system picks', () => {
  assert.deepEqual(stripeMockArgs({ port: 12111 }), ['-http-addr', '127.0.0.1:12111', '-https-addr', '127.0.0.1:0']);
});

test("the run command's STRIPE_MOCK_PORT defaults to 12111 and is checked free with the other ports", () => {
  assert.deepEqual(
    variables.find(([name]) => name === 'STRIPE_MOCK_PORT'),
    ['STRIPE_MOCK_PORT', '12111', "stripe-mock, Stripe's API mock: the edge's STRIPE_API_BASE"],
  );
  assert.ok(portVariables.includes('STRIPE_MOCK_PORT'));
  assert.equal(variables.find(([name]) => name === 'STRIPE_SECRET_KEY')?.[1], 'sk_test_local');
  assert.equal(variables.find(([name]) => name === 'STRIPE_WEBHOOK_SECRET')?.[1], 'whsec_local');
});

test('the run command refuses a busy STRIPE_MOCK_PORT before it starts anything, and --help lists it', async (t) => {
  const srv = createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(undefined)));
  t.after(() => srv.close());
  const busy = /** @type {import('node:net').AddressInfo} */ (srv.address()).port;
  /** @param {string[]} args */
  const runCommand = async (args) => {
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...process.env };
    for (const variable of portVariables) env[variable] = String(variable === 'STRIPE_MOCK_PORT' ? busy : await freePort());
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'run.mjs'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    const code = await new Promise((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    return { code, out, err };
  };
  const refused = await runCommand([]);
  assert.equal(refused.code, 1, refused.out + refused.err);
  assert.equal(refused.err.trim(), `run: port ${busy} is in use: set STRIPE_MOCK_PORT to another port`);
  assert.equal(refused.out, '', 'nothing was set up or started before the refusal');
  const help = await runCommand(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /^  STRIPE_MOCK_PORT +12111 +stripe-mock/m);
  assert.match(help.out, /^  STRIPE_SECRET_KEY +sk_test_local /m);
  assert.match(help.out, /^  STRIPE_WEBHOOK_SECRET +whsec_local /m);
});

test("the edge's Stripe environment: stripe-mock's address, the local key and secret unless the caller set its own", () => {
  assert.deepEqual(stripeEnv('http://127.0.0.1:5000'), { STRIPE_API_BASE: 'http://127.0.0.1:5000', ...LOCAL_STRIPE_ENV });
  assert.deepEqual(LOCAL_STRIPE_ENV, { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: 'whsec_local' });
  assert.deepEqual(stripeEnv('http://127.0.0.1:5000', { STRIPE_SECRET_KEY: 'sk_test_mine', STRIPE_API_BASE: 'https://api.stripe.com' }), {
    STRIPE_API_BASE: 'http://127.0.0.1:5000',
    STRIPE_SECRET_KEY: 'sk_test_mine',
    STRIPE_WEBHOOK_SECRET: 'whsec_local',
  });
});

test("no other STRIPE_* variable of the caller's reaches the edge", () => {
  const caller = { PATH: '/bin', STRIPE_SECRET_ARN: 'arn:aws:secretsmanager:x', STRIPE_WEBHOOK_PAUSE_MS: '3000', STRIPE_SECRET_KEY: 'sk_test_mine' };
  assert.deepEqual(unsetOtherStripeVariables(caller), { STRIPE_SECRET_ARN: undefined, STRIPE_WEBHOOK_PAUSE_MS: undefined });
  const edge = { ...caller, ...unsetOtherStripeVariables(caller), ...stripeEnv('http://127.0.0.1:5000', caller) };
  assert.deepEqual(
    Object.keys(edge)
      .filter((k) => k.startsWith('STRIPE_') && edge[/** @type {keyof typeof edge} */ (k)] !== undefined)
      .sort(),
    ['STRIPE_API_BASE', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
  );
});

test("stripe-mock, built from the functions module's pinned version, answers a Stripe API call on loopback only", { timeout: 300_000 }, async (t) => {
  t.after(() => stopAll(2000));
  const port = await freePort();
  const { child, url } = await startStripeMock({ port });
  assert.equal(url, `http://127.0.0.1:${port}`);
  const res = await fetch(`${url}/v1/customers/cus_123`, { headers: { authorization: 'Bearer sk_test_local' } });
  assert.equal(res.status, 200);
  assert.equal(/** @type {{ object: string }} */ (await res.json()).object, 'customer');
  // Its own lines say where it listens: both on 127.0.0.1, neither on every interface.
  const listening = child.outputTail().filter((l) => l.startsWith('Listening for'));
  assert.equal(listening.length, 2, listening.join('\n'));
  for (const line of listening) assert.match(line, /at address: 127\.0\.0\.1:\d+$/);
});
