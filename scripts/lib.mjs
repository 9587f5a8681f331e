// Shared helpers of the run, test, build and bench entry points: child processes that
// are always stopped, free ports, waiting for a port, and the Go binaries.
import { spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const localDir = path.join(root, '.local');
export const binDir = path.join(localDir, 'bin');

/** Prints one progress line with a timestamp relative to the start of the process. */
export function say(tag, msg) {
  const s = (performance.now() / 1000).toFixed(1).padStart(6);
  console.log(`[${s}s] ${tag}: ${msg}`);
}

/** Runs a command to completion; rejects with its exit code. Output goes to ours. */
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

/** Runs a command and answers its standard output. */
export function capture(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: root, ...opts });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited with ${code}`))));
  });
}

const children = new Set();

/** Starts a long-running child in its own process group; stopAll ends it. Its output is
 * prefixed with the service name (or written to logFile when given). */
export function startService(name, cmd, args, opts = {}) {
  const { logFile, env, cwd } = opts;
  const child = spawn(cmd, args, {
    cwd: cwd ?? root,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.serviceName = name;
  children.add(child);
  const sink = logFile ? (mkdirSync(path.dirname(logFile), { recursive: true }), logFile) : null;
  const forward = (stream) =>
    stream.on('data', (d) => {
      if (sink) writeFileSync(sink, d, { flag: 'a' });
      else for (const line of String(d).split('\n')) if (line.trim()) console.log(`  ${name} | ${line}`);
    });
  forward(child.stdout);
  forward(child.stderr);
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    children.delete(child);
    resolve(code ?? signal);
  }));
  return child;
}

/** Stops every child startService started, newest first: SIGTERM to its process group,
 * then SIGKILL after a grace period. */
export async function stopAll(graceMs = 8000) {
  const list = [...children].reverse();
  for (const child of list) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, graceMs);
    await child.exited;
    clearTimeout(timer);
  }
}

/** Answers a TCP port that is free on loopback right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Waits until something accepts connections on host:port, or the child dies. */
export async function waitForPort(port, { host = '127.0.0.1', timeoutMs = 60000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${child.serviceName} exited before listening on ${port}`);
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

/** Installs the npm packages from the lock file when they are missing or stale. */
export async function ensureNpmPackages() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lock).mtimeMs) return;
  say('setup', 'installing npm packages from package-lock.json');
  await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}

/** Builds the local Go commands (seed, snapshot, local edge) into .local/bin. */
export async function buildGoCommands() {
  mkdirSync(binDir, { recursive: true });
  say('setup', 'building Go commands');
  await run('go', ['build', '-o', binDir + '/', './cmd/seed', './cmd/snapshot', './cmd/local'], {
    cwd: path.join(root, 'functions'),
  });
}

/** Writes a firebase.json for the Auth emulator on the given ports and answers its path. */
export function writeFirebaseConfig(dir, { authPort, hubPort, loggingPort }) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'firebase.json');
  writeFileSync(
    file,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: authPort },
        hub: { host: '127.0.0.1', port: hubPort },
        logging: { host: '127.0.0.1', port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }, null, 2),
  );
  return file;
}

/** Starts dynalite on port; with dataDir the tables persist there, else in memory. */
export async function startDynalite(port, dataDir) {
  const args = ['--host', '127.0.0.1', '--port', String(port), '--createTableMs', '0', '--deleteTableMs', '0', '--updateTableMs', '0'];
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    args.push('--path', dataDir);
  }
  const child = startService('dynalite', path.join(root, 'node_modules/.bin/dynalite'), args);
  await waitForPort(port, { child });
  return child;
}

/** Starts the Firebase Auth emulator (demo project, UI off) and waits for it. */
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

let stopping = false;

/** Reports whether a Ctrl-C or SIGTERM is stopping the services. */
export const isStopping = () => stopping;

/** Stops children on Ctrl-C or SIGTERM, then exits. */
export function stopOnSignals(onStop) {
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, async () => {
      if (stopping) return;
      stopping = true;
      say('stop', `${sig}: stopping every service`);
      await onStop?.();
      await stopAll();
      process.exit(130);
    });
  }
}
