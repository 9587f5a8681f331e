// @ts-check
// Busy ports are refused before anything starts, with a sentence naming the variable
// that moves each one (scripts/lib.mjs ensurePortsFree, as the run command uses it), and so
// are arguments the run command does not know; a service that dies at start is reported
// with the last lines of its output; the build id the edge's log lines carry is the
// checkout's short commit, -dirty with a changed tracked file, `local` outside git.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { TAIL_LINES, ensurePortsFree, freePort, localBuildId, root, startService, waitForPort } from './lib.mjs';
import { observabilityLines, portVariables } from './run.mjs';

/** Listens on 127.0.0.1 (or host) on a free port until the test ends; answers the port.
 * @param {import('node:test').TestContext} t */
async function occupy(t, host = '127.0.0.1') {
  const srv = createServer();
  await new Promise((resolve) => srv.listen(0, host, () => resolve(undefined)));
  t.after(() => srv.close());
  return /** @type {import('node:net').AddressInfo} */ (srv.address()).port;
}

test('free ports pass', async () => {
  await ensurePortsFree([
    { variable: 'PORT', port: await freePort() },
    { variable: 'DYNAMODB_PORT', port: await freePort() },
  ]);
});

test('a port something listens on is refused, naming the variable that moves it', async (t) => {
  const busy = await occupy(t);
  await assert.rejects(
    ensurePortsFree([
      { variable: 'PORT', port: await freePort() },
      { variable: 'DYNAMODB_PORT', port: busy },
    ]),
    { message: `port ${busy} is in use: set DYNAMODB_PORT to another port` },
  );
});

test('a port taken on every interface is busy on loopback too', async (t) => {
  const busy = await occupy(t, '0.0.0.0');
  await assert.rejects(ensurePortsFree([{ variable: 'AUTH_EMULATOR_PORT', port: busy }]), {
    message: `port ${busy} is in use: set AUTH_EMULATOR_PORT to another port`,
  });
});

test('two variables on one port, and a port that is not a number, are refused in one message', async () => {
  const p = await freePort();
  await assert.rejects(
    ensurePortsFree([
      { variable: 'PORT', port: p },
      { variable: 'DYNAMODB_PORT', port: p },
      { variable: 'EMULATOR_HUB_PORT', port: Number('x') },
    ]),
    { message: `PORT and DYNAMODB_PORT are both ${p}: set DYNAMODB_PORT to another port; EMULATOR_HUB_PORT must be a port number from 1 to 65535` },
  );
});

/** Runs the run command (node scripts/run.mjs, or the wrapper scripts/run when wrapper) with
 * args, the ports given and every other port it reads set to a free one: its defaults
 * (8080, 1025, …) may be held by a shop running on this machine.
 * @param {Record<string, number>} ports
 * @param {{ wrapper?: boolean, args?: string[] }} [options]
 * @returns {Promise<{ code: number | null, out: string, err: string, ms: number }>} */
async function runCommand(ports, { wrapper = false, args = [] } = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env };
  // Each variable its own port: a port freed by freePort may be handed out again at once,
  // and two variables on one port are refused (a refusal this test would read as its own).
  const taken = new Set(Object.values(ports));
  for (const variable of portVariables) {
    let port = ports[variable];
    while (port === undefined || (taken.has(port) && ports[variable] === undefined)) port = await freePort();
    taken.add(port);
    env[variable] = String(port);
  }
  const t0 = performance.now();
  const child = wrapper
    ? spawn(path.join(root, 'scripts', 'run'), args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [path.join(root, 'scripts', 'run.mjs'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, out, err, ms: performance.now() - t0 };
}

test('the run command refuses a busy DYNAMODB_PORT before it starts anything', async (t) => {
  const busy = await occupy(t);
  const { code, out, err } = await runCommand({ DYNAMODB_PORT: busy });
  assert.equal(code, 1, out + err);
  assert.equal(err.trim(), `run: port ${busy} is in use: set DYNAMODB_PORT to another port`);
  assert.equal(out, '', 'nothing was set up or started before the refusal');
});

test('scripts/run with the edge port taken exits within 5 s naming the port and PORT, having started nothing', async (t) => {
  const busy = await occupy(t);
  const { code, out, err, ms } = await runCommand({ PORT: busy }, { wrapper: true });
  assert.equal(code, 1, out + err);
  assert.equal(err.trim(), `run: port ${busy} is in use: set PORT to another port`);
  assert.equal(out, '', 'nothing was set up or started before the refusal');
  assert.ok(ms < 5000, `refused after ${ms.toFixed(0)} ms`);
});

test('the run command refuses an argument it does not know with its usage (exit 2), and --help starts nothing', async () => {
  const refused = await runCommand({}, { args: ['--port', '9000'] });
  assert.equal(refused.code, 2);
  assert.match(refused.err, /^run: Unknown option '--port'\nusage: scripts\/run \[--help\]\n/);
  assert.equal(refused.out, '');
  const help = await runCommand({}, { args: ['-h'] });
  assert.equal(help.code, 0);
  assert.match(help.out, /^usage: scripts\/run \[--help\]\n[^]* {2}PORT {19}8080 {20}the local edge/);
  assert.equal(help.err, '');
});

/** Runs a Node one-liner as a service that prints lines 1..count (the odd ones to stderr
 * with mixed) and exits with 3 without listening.
 * @param {number} count
 * @param {{ mixed?: boolean, logFile?: string }} [options] */
function dyingService(count, { mixed = false, ...opts } = {}) {
  const script = `for (let i = 1; i <= ${count}; i++) (${mixed} && i % 2 ? console.error : console.log)('line ' + i); process.exitCode = 3;`;
  return startService('dying', process.execPath, ['-e', script], opts);
}

test('a service that exits before it listens is reported with the last lines of its log file', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-lib-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const logFile = path.join(dir, 'dying.log');
  const child = dyingService(30, { logFile });
  const err = await waitForPort(await freePort(), { child, timeoutMs: 20000 }).catch((e) => e);
  assert.ok(err instanceof Error, 'waitForPort rejects');
  const [first, ...shown] = err.message.split('\n');
  assert.match(first, /^dying exited with 3 before listening on \d+; the last 20 lines of its output \(.*dying\.log\):$/);
  assert.deepEqual(
    shown,
    Array.from({ length: TAIL_LINES }, (_, i) => `  | line ${30 - TAIL_LINES + 1 + i}`),
  );
  assert.equal(readFileSync(logFile, 'utf8').trim().split('\n').length, 30, 'the log file holds every line');
});

test('without a log file the error shows the captured output, stderr too, and a silent service says so', async () => {
  // The two pipes are read as their data comes: which of the two lines comes first varies.
  const err = await waitForPort(await freePort(), { child: dyingService(2, { mixed: true }), timeoutMs: 20000 }).catch((e) => e);
  assert.match(
    err.message,
    /^dying exited with 3 before listening on \d+; the last 2 lines of its output:\n {2}\| (line 1\n {2}\| line 2|line 2\n {2}\| line 1)$/,
  );
  const silent = await waitForPort(await freePort(), { child: dyingService(0), timeoutMs: 20000 }).catch((e) => e);
  assert.match(silent.message, /^dying exited with 3 before listening on \d+, printing nothing$/);
});

test('localBuildId: the short commit, -dirty with a changed tracked file, local outside git', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-build-id-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.equal(localBuildId(dir), 'local');
  const git = (/** @type {string[]} */ ...args) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@shop.test', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  writeFileSync(path.join(dir, 'a.txt'), 'one');
  git('add', 'a.txt');
  git('commit', '-qm', 'one');
  const commit = git('rev-parse', '--short', 'HEAD');
  assert.equal(localBuildId(dir), commit);
  writeFileSync(path.join(dir, 'b.txt'), 'untracked');
  assert.equal(localBuildId(dir), commit, 'an untracked file is no change');
  writeFileSync(path.join(dir, 'a.txt'), 'two');
  assert.equal(localBuildId(dir), `${commit}-dirty`);
});

test('the run command says where the metrics and the error reports go', () => {
  const text = observabilityLines({ port: 8123, buildId: 'abc1234-dirty' }).join('\n');
  assert.match(text, /\.local\/logs\/edge\.log: scripts\/metrics summarises/);
  assert.match(text, /build abc1234-dirty/);
  assert.match(text, /http:\/\/127\.0\.0\.1:8123\/admin\/health\//);
});
