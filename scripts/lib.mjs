// @ts-check
// Shared helpers of the run, test, build and bench entry points: child processes that
// are always stopped (and, when one dies at start, the last lines of its output), free and
// busy ports, waiting for a port, Debian packages through apt-get, and the Go binaries. DynamoDB Local, the local store, is dynamodb-local.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { existsSync, lstatSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const localDir = path.join(root, '.local');
export const binDir = path.join(localDir, 'bin');

/**
 * A long-running child that startService started: its name, its log file, the last lines
 * of its output, and promises of its end.
 * @typedef {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable> & {
 *   serviceName: string,
 *   logFile: string | null,
 *   outputTail: () => string[],
 *   closed: Promise<void>,
 *   exited: Promise<number | NodeJS.Signals | null>,
 * }} Service
 */

/** Prints one progress line with a timestamp relative to the start of the process.
 * @param {string} tag
 * @param {string} msg */
export function say(tag, msg) {
  const s = (performance.now() / 1000).toFixed(1).padStart(6);
  console.log(`[${s}s] ${tag}: ${msg}`);
}

/** Runs a command to completion; rejects with its exit code. Output goes to ours.
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [opts]
 * @returns {Promise<void>} */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

/** Runs a command and answers its standard output.
 * @param {string} cmd
 * @param {string[]} args
 * @param {Omit<import('node:child_process').SpawnOptions, 'stdio'>} [opts]
 * @returns {Promise<string>} */
export function capture(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, ...opts, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited with ${code}`))));
  });
}

/** @type {Set<Service>} */
const children = new Set();
let stopping = false;

/** How many of a service's last output lines a start failure shows. */
export const TAIL_LINES = 20;

/** Starts a long-running child in its own process group; stopAll ends it. Its output is
 * prefixed with the service name (or written to logFile when given), and its last
 * TAIL_LINES lines are kept for startFailure.
 * @param {string} name
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ logFile?: string, env?: NodeJS.ProcessEnv, cwd?: string }} [opts]
 * @returns {Service} */
export function startService(name, cmd, args, opts = {}) {
  const { logFile, env, cwd } = opts;
  const child = /** @type {Service} */ (
    spawn(cmd, args, {
      cwd: cwd ?? root,
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
  );
  child.serviceName = name;
  child.logFile = logFile ?? null;
  children.add(child);
  const sink = logFile ? (mkdirSync(path.dirname(logFile), { recursive: true }), logFile) : null;
  /** @type {string[]} */
  const tail = [];
  const forward = (/** @type {import('node:stream').Readable} */ stream) => {
    let partial = '';
    stream.on('data', (d) => {
      if (sink) writeFileSync(sink, d, { flag: 'a' });
      const lines = (partial + d).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!sink && line.trim()) console.log(`  ${name} | ${line}`);
        tail.push(line);
      }
      tail.splice(0, Math.max(0, tail.length - TAIL_LINES));
    });
    stream.on('end', () => {
      if (!partial) return;
      if (!sink && partial.trim()) console.log(`  ${name} | ${partial}`);
      tail.push(partial);
      tail.splice(0, Math.max(0, tail.length - TAIL_LINES));
    });
  };
  forward(child.stdout);
  forward(child.stderr);
  child.outputTail = () => tail.filter((l) => l.trim());
  // 'close' comes once both pipes are drained (after 'exit', which can come first).
  child.closed = new Promise((resolve) => child.on('close', () => resolve()));
  child.exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? signal);
    }),
  );
  return child;
}

/** The error for a service that exited before it was ready (before `what`, such as
 * "listening on 8080"): its exit code or signal and the last lines of its output (its log
 * file's, when it has one), so the reason is on screen without opening the log. Waits up
 * to a second for the output to drain: a grandchild can hold the pipes open.
 * @param {Service} child
 * @param {string} what
 * @returns {Promise<Error>} */
export async function startFailure(child, what) {
  await Promise.race([child.closed, new Promise((r) => setTimeout(r, 1000).unref())]);
  const code = child.exitCode ?? child.signalCode;
  const shown = child.logFile && path.relative(process.cwd(), child.logFile);
  const log = child.logFile ? ` (${shown && !shown.startsWith('..') ? shown : child.logFile})` : '';
  const lines = child.outputTail();
  const detail = lines.length
    ? `; the last ${lines.length === 1 ? 'line' : `${lines.length} lines`} of its output${log}:${lines.map((l) => `\n  | ${l}`).join('')}`
    : `, printing nothing${log}`;
  return new Error(`${child.serviceName} exited with ${code} before ${what}${detail}`);
}

/** Stops every child startService started, newest first: SIGTERM to its process group,
 * then SIGKILL after a grace period. */
export async function stopAll(graceMs = 8000) {
  stopping = true;
  const list = [...children].reverse();
  for (const child of list) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, graceMs);
    await child.exited;
    clearTimeout(timer);
  }
}

/** Answers a TCP port that is free on loopback right now.
 * @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/** Answers why nothing of ours can listen on 127.0.0.1:port right now ('EADDRINUSE' when
 * something listens there, on loopback or on every interface), or null when it is free.
 * @param {number} port
 * @returns {Promise<string | null>} */
export function portProblem(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', (/** @type {NodeJS.ErrnoException} */ err) => resolve(err.code ?? String(err)));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(null)));
  });
}

/** Refuses, before anything starts, a port that is not a port number, that two variables
 * share or that something already listens on, with one sentence each naming the variable
 * that moves it. ports: [{ variable, port }] (port as the variable gave it, or its default).
 * @param {{ variable: string, port: number }[]} ports */
export async function ensurePortsFree(ports) {
  /** @type {string[]} */
  const problems = [];
  /** @type {Map<number, string>} */
  const taken = new Map();
  for (const { variable, port } of ports) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(`${variable} must be a port number from 1 to 65535`);
    } else if (taken.has(port)) {
      problems.push(`${taken.get(port)} and ${variable} are both ${port}: set ${variable} to another port`);
    } else {
      taken.set(port, variable);
      const code = await portProblem(port);
      if (code === 'EADDRINUSE') problems.push(`port ${port} is in use: set ${variable} to another port`);
      else if (code) problems.push(`cannot listen on port ${port} (${code}): set ${variable} to another port`);
    }
  }
  if (problems.length) throw new Error(problems.join('; '));
}

/** Waits until something accepts connections on host:port; rejects when the child dies
 * first (startFailure: with the last lines of its output) or after timeoutMs.
 * @param {number} port
 * @param {{ host?: string, timeoutMs?: number, child?: Service }} [options] */
export async function waitForPort(port, { host = '127.0.0.1', timeoutMs = 60000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw await startFailure(child, `listening on ${port}`);
    const ok = await new Promise((resolve) => {
      const sock = connect({ host, port }, () => {
        sock.end();
        resolve(true);
      });
      sock.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`nothing listening on ${host}:${port} after ${timeoutMs} ms`);
}

/** Runs a command as root: directly when we are root, else through sudo.
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [opts] */
export function runAsRoot(cmd, args, opts = {}) {
  const isRoot = process.getuid?.() === 0;
  return run(isRoot ? cmd : 'sudo', isRoot ? args : [cmd, ...args], opts);
}

/** Installs Debian packages through apt-get (as root, or with sudo), after a progress line
 * saying what and why.
 * @param {string[]} packages
 * @param {string} why */
export async function aptInstall(packages, why) {
  say('setup', `installing Debian's ${packages.join(', ')} ${why} (apt-get)`);
  const opts = { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
  await runAsRoot('apt-get', ['update', '-qq'], opts);
  await runAsRoot('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], opts);
}

/** Installs the npm packages from the lock file when they are missing or stale. */
export async function ensureNpmPackages() {
  const lock = path.join(root, 'package-lock.json');
  const modules = path.join(root, 'node_modules');
  const stamp = path.join(modules, '.package-lock.json');
  // A node_modules that links to another checkout's install (a git worktree sharing it) is
  // that checkout's to update: npm ci would empty it through the link, under every other
  // process using it. A fresh checkout's lock file is always newer than the stamp.
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    say('setup', `node_modules links to ${realpathSync(modules)}: using it as it is (install there)`);
    return;
  }
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lock).mtimeMs) return;
  say('setup', 'installing npm packages from package-lock.json');
  await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}

/** The build the local edge's log lines carry (BUILD_ID, docs/operations.md): the short
 * commit of the checkout, with -dirty when a tracked file has changes (as `git describe
 * --dirty` counts them), or `local` outside a git checkout or without git.
 * @param {string} [dir] */
export function localBuildId(dir = root) {
  try {
    const git = (/** @type {string[]} */ args) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git(['rev-parse', '--short', 'HEAD']);
    return git(['status', '--porcelain', '--untracked-files=no']) ? `${commit}-dirty` : commit;
  } catch {
    return 'local';
  }
}

/** Builds the local Go commands (seed, snapshot, local edge, recover, statements) into .local/bin. */
export async function buildGoCommands() {
  mkdirSync(binDir, { recursive: true });
  say('setup', 'building Go commands');
  await run('go', ['build', '-o', binDir + '/', './cmd/seed', './cmd/snapshot', './cmd/local', './cmd/recover', './cmd/statements', './cmd/catalogue'], {
    cwd: path.join(root, 'functions'),
  });
}

/** Writes a firebase.json for the Auth emulator on the given ports and answers its path.
 * @param {string} dir
 * @param {{ authPort: number, hubPort: number, loggingPort: number }} ports */
export function writeFirebaseConfig(dir, { authPort, hubPort, loggingPort }) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'firebase.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        emulators: {
          auth: { host: '127.0.0.1', port: authPort },
          hub: { host: '127.0.0.1', port: hubPort },
          logging: { host: '127.0.0.1', port: loggingPort },
          ui: { enabled: false },
          singleProjectMode: true,
        },
      },
      null,
      2,
    ),
  );
  return file;
}

/** Starts the Firebase Auth emulator (demo project, UI off) and waits for it.
 * importDir: users to load, when it holds an export; exportDir: where they go on exit.
 * @param {{ projectId: string, configFile: string, authPort: number, importDir?: string, exportDir?: string, logFile?: string }} options
 * @returns {Promise<Service>} */
export async function startAuthEmulator({ projectId, configFile, authPort, importDir, exportDir, logFile }) {
  const args = ['emulators:start', '--only', 'auth', '--project', projectId, '--config', configFile];
  if (importDir && existsSync(path.join(importDir, 'firebase-export-metadata.json'))) args.push('--import', importDir);
  if (exportDir) args.push('--export-on-exit', exportDir);
  const child = startService('auth', path.join(root, 'node_modules/.bin/firebase'), args, {
    logFile,
    env: { FIREBASE_CLI_EXPERIMENTS: '', NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  });
  await waitForPort(authPort, { child, timeoutMs: 90000 });
  return child;
}

/** Reports whether the services are being stopped (Ctrl-C, SIGTERM or stopAll), so a
 * child's exit is not taken for a failure. */
export const isStopping = () => stopping;

/** Stops children on Ctrl-C or SIGTERM, then exits.
 * @param {() => Promise<void> | void} [onStop] */
export function stopOnSignals(onStop) {
  let signalled = false;
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, async () => {
      if (signalled) return;
      signalled = true;
      stopping = true;
      say('stop', `${sig}: stopping every service`);
      await onStop?.();
      await stopAll();
      process.exit(130);
    });
  }
}
