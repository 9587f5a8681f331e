// @ts-check
// The run and test commands check Node and Go first (scripts/preflight.cjs): the version
// comparison, the versions the project names, and a Go too old or missing, refused in one
// sentence with an install hint before anything starts.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { root } from './lib.mjs';
import preflight from './preflight.cjs';

const { atLeast, goVersion, neededVersions, parseVersion, toolchainProblems } = preflight;

test('parseVersion reads the first version in what node, go and the manifests say', () => {
  /** @type {[string, number[] | null][]} */
  const cases = [
    ['v20.19.1', [20, 19, 1]],
    ['20.20.2', [20, 20, 2]],
    ['>=20.19', [20, 19, 0]],
    ['go version go1.26.8 linux/amd64', [1, 26, 8]],
    ['go version go1.26 linux/amd64', [1, 26, 0]],
    ['go version devel go1.27-4b3c1a2 Tue Oct 1 linux/amd64', [1, 27, 0]],
    ['none on PATH', null],
  ];
  for (const [text, want] of cases) assert.deepEqual(parseVersion(text), want, text);
});

test('atLeast compares major, minor and patch as numbers', () => {
  /** @type {[string, string, boolean][]} */
  const cases = [
    ['20.19.0', '20.19', true],
    ['20.20.2', '20.19', true],
    ['22.1.0', '20.19', true],
    ['20.18.3', '20.19', false],
    ['20.9.0', '20.19', false], // 9 < 19 as numbers, not as text
    ['18.19.1', '20.19', false],
    ['go version go1.26.8 linux/amd64', '1.26.8', true],
    ['go version go1.26.10 linux/amd64', '1.26.8', true],
    ['go version go1.27.0 linux/amd64', '1.26.8', true],
    ['go version go1.26.7 linux/amd64', '1.26.8', false],
    ['go version go1.22.1 linux/amd64', '1.26.8', false],
    ['go version go2.0.0 linux/amd64', '1.26.8', true],
    ['none on PATH', '1.26.8', false],
  ];
  for (const [found, needed, want] of cases) assert.equal(atLeast(found, needed), want, `${found} >= ${needed}`);
});

test('the needed versions are the ones package.json engines and functions/go.mod name', () => {
  const needed = neededVersions();
  assert.match(needed.node, /^\d+\.\d+(\.\d+)?$/);
  assert.match(needed.go, /^\d+\.\d+(\.\d+)?$/);
  assert.ok(atLeast(process.versions.node, needed.node), 'the Node running this test is new enough');
  assert.ok(atLeast(goVersion(), needed.go), 'the go on PATH is new enough');
});

test('toolchainProblems names each old or missing tool, what was found and where to get it', () => {
  const needed = { node: '20.19', go: '1.26.8' };
  assert.deepEqual(toolchainProblems({ node: '20.19.0', go: 'go version go1.26.8 linux/amd64' }, needed), []);
  assert.deepEqual(toolchainProblems({ node: '18.19.0', go: 'go version go1.22.1 linux/amd64' }, needed), [
    'Node 20.19 or newer is needed (found 18.19.0): install it from https://nodejs.org/en/download (or run `nvm install 20`)',
    "Go 1.26.8 or newer is needed (found go1.22.1): install it from https://go.dev/dl/ (Debian's golang-go is older)",
  ]);
  assert.deepEqual(toolchainProblems({ node: '22.0.0', go: 'none on PATH' }, needed), [
    "Go 1.26.8 or newer is needed (found none on PATH): install it from https://go.dev/dl/ (Debian's golang-go is older)",
  ]);
});

/** A directory holding a fake `go` that says it is go1.22.1.
 * @param {import('node:test').TestContext} t */
function oldGo(t) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-preflight-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'go'), '#!/bin/sh\necho "go version go1.22.1 linux/amd64"\n');
  chmodSync(path.join(dir, 'go'), 0o755);
  return dir;
}

/** Runs cmd to its end; answers { code, out, err, ms }.
 * @param {string} cmd
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env */
function runToEnd(cmd, args, env) {
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, ms: performance.now() - t0 });
    }),
  );
}

for (const command of ['run', 'test']) {
  test(`scripts/${command} with an old go refuses in one sentence before it starts anything`, async (t) => {
    const env = { ...process.env, PATH: `${oldGo(t)}${path.delimiter}${process.env.PATH}` };
    // An argument the command refuses: were the preflight to let it through, the command
    // would stop at its arguments (exit 2) instead of starting the shop or every suite.
    const r = await runToEnd(path.join(root, 'scripts', command), ['--no-such-option'], env);
    assert.equal(r.code, 1, r.out + r.err);
    assert.equal(
      r.err.trim(),
      `${command}: Go ${neededVersions().go} or newer is needed (found go1.22.1): install it from https://go.dev/dl/ (Debian's golang-go is older)`,
    );
    assert.equal(r.out, '', 'nothing was set up or started');
    assert.ok(r.ms < 5000, `refused in ${r.ms.toFixed(0)} ms`);
  });

  test(`scripts/${command} --help needs no toolchain: usage, nothing started`, async (t) => {
    const env = { ...process.env, PATH: `${oldGo(t)}${path.delimiter}${process.env.PATH}` };
    const r = await runToEnd(path.join(root, 'scripts', command), ['--help'], env);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, new RegExp(`^usage: scripts/${command}`));
    assert.equal(r.err, '');
  });
}

test('with no go on PATH the preflight says so', async () => {
  const r = await runToEnd(process.execPath, [path.join(root, 'scripts', 'preflight.cjs'), 'run'], { PATH: path.join(tmpdir(), 'no-such-dir') });
  assert.equal(r.code, 1);
  assert.match(r.err, /^run: Go \S+ or newer is needed \(found none on PATH\): install it from/);
});
