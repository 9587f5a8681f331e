// @ts-check
// The test command's suite filter (scripts/test.mjs): `scripts/test SUITE ...` runs the
// suites named, brings the build along for the suites that test it, and refuses a name it
// does not know with the list. Importing test.mjs runs no suite.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import test from 'node:test';
import { root } from './lib.mjs';
import { SUITES, selectSuites, usage } from './test.mjs';

const names = SUITES.map(([name]) => name);

test('no suite named runs every suite', () => {
  assert.deepEqual([...selectSuites([])], names);
});

test('the suites named run, and release, e2e and faults bring the build along', () => {
  const cases = [
    [['go'], ['go']],
    [
      ['static', 'scripts'],
      ['static', 'scripts'],
    ],
    [['e2e'], ['e2e', 'build']],
    [
      ['go', 'faults'],
      ['go', 'faults', 'build'],
    ],
    [
      ['release', 'build'],
      ['release', 'build'],
    ],
  ];
  for (const [args, want] of cases) assert.deepEqual([...selectSuites(args)].sort(), [...want].sort(), args.join(' '));
});

test('an unknown suite is refused with the list of suites', () => {
  assert.throws(() => selectSuites(['go', 'unit']), { message: `unknown suite unit: the suites are ${names.join(', ')}` });
  assert.throws(() => selectSuites(['e3e', 'lint']), { message: `unknown suites e3e, lint: the suites are ${names.join(', ')}` });
});

test('the usage lists every suite', () => {
  for (const name of names) assert.match(usage, new RegExp(`^  ${name} +\\S`, 'm'));
});

test('scripts/test.mjs with an unknown suite exits 2 with the usage, having started nothing', async () => {
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'test.mjs'), 'go', 'unit'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 2);
  assert.equal(out, '');
  assert.equal(err, `test: unknown suite unit: the suites are ${names.join(', ')}\n${usage}\n`);
});
