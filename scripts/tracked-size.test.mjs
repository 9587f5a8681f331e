// @ts-check
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { LIMIT_BYTES, oversized } from './tracked-size.mjs';

const git = (/** @type {string} */ dir, /** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });

test('a tracked file over 1 MB fails the check; an untracked or ignored one does not', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tracked-size-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  git(dir, 'init', '-q');
  writeFileSync(path.join(dir, '.gitignore'), 'local\n');
  writeFileSync(path.join(dir, 'small.txt'), 'x'.repeat(LIMIT_BYTES));
  writeFileSync(path.join(dir, 'local'), Buffer.alloc(LIMIT_BYTES + 1));
  writeFileSync(path.join(dir, 'untracked'), Buffer.alloc(LIMIT_BYTES + 1));
  git(dir, 'add', '.gitignore', 'small.txt');
  assert.deepEqual(oversized(dir), []);
  writeFileSync(path.join(dir, 'benchorders'), Buffer.alloc(LIMIT_BYTES + 1));
  git(dir, 'add', 'benchorders');
  assert.deepEqual(oversized(dir), [{ file: 'benchorders', bytes: LIMIT_BYTES + 1 }]);
});

test('this checkout tracks no file over 1 MB', () => {
  assert.deepEqual(oversized(path.join(import.meta.dirname, '..')), []);
});
