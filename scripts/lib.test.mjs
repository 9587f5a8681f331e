// Busy ports are refused before anything starts, with a sentence naming the variable
// that moves each one (scripts/lib.mjs ensurePortsFree, as the run command uses it).
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import test from 'node:test';
import { ensurePortsFree, freePort, root } from './lib.mjs';

/** Listens on 127.0.0.1 (or host) on a free port until the test ends; answers the port. */
async function occupy(t, host = '127.0.0.1') {
  const srv = createServer();
  await new Promise((resolve) => srv.listen(0, host, resolve));
  t.after(() => srv.close());
  return srv.address().port;
}

test('free ports pass', async () => {
  await ensurePortsFree([{ variable: 'PORT', port: await freePort() }, { variable: 'DYNAMODB_PORT', port: await freePort() }]);
});

test('a port something listens on is refused, naming the variable that moves it', async (t) => {
  const busy = await occupy(t);
  await assert.rejects(
    ensurePortsFree([{ variable: 'PORT', port: await freePort() }, { variable: 'DYNAMODB_PORT', port: busy }]),
    { message: `port ${busy} is in use: set DYNAMODB_PORT to another port` },
  );
});

test('a port taken on every interface is busy on loopback too', async (t) => {
  const busy = await occupy(t, '0.0.0.0');
  await assert.rejects(ensurePortsFree([{ variable: 'AUTH_EMULATOR_PORT', port: busy }]),
    { message: `port ${busy} is in use: set AUTH_EMULATOR_PORT to another port` });
});

test('two variables on one port, and a port that is not a number, are refused in one message', async () => {
  const p = await freePort();
  await assert.rejects(
    ensurePortsFree([{ variable: 'PORT', port: p }, { variable: 'DYNAMODB_PORT', port: p }, { variable: 'EMULATOR_HUB_PORT', port: Number('x') }]),
    { message: `PORT and DYNAMODB_PORT are both ${p}: set DYNAMODB_PORT to another port; EMULATOR_HUB_PORT must be a port number from 1 to 65535` },
  );
});

test('the run command refuses a busy DYNAMODB_PORT before it starts anything', async (t) => {
  const busy = await occupy(t);
  const [port, auth, hub, logging] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'run.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DYNAMODB_PORT: String(busy), AUTH_EMULATOR_PORT: String(auth), EMULATOR_HUB_PORT: String(hub), EMULATOR_LOGGING_PORT: String(logging) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  assert.equal(code, 1, out + err);
  assert.equal(err.trim(), `run: port ${busy} is in use: set DYNAMODB_PORT to another port`);
  assert.equal(out, '', 'nothing was set up or started before the refusal');
});
