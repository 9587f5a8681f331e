// @ts-check
// The `static` suite's check that git tracks no build output: every tracked file is at most
// LIMIT_BYTES (1 MB) unless it is a declared fixture in FIXTURES (none today). A compiled Go
// command (16–32 MB) committed by a stray `go build` fails it, naming the file and its size.
//
//   node scripts/tracked-size.mjs [DIR]     check the git checkout at DIR (default: this one)
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The most a tracked file may weigh. */
export const LIMIT_BYTES = 1024 * 1024;

/** Tracked files allowed over the limit, by path from the repository root, each with why. */
export const FIXTURES = new Map(/** @type {[string, string][]} */ ([]));

/**
 * The tracked files of the checkout at dir over the limit that are not declared fixtures.
 * @param {string} dir
 * @returns {{ file: string, bytes: number }[]}
 */
export function oversized(dir) {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
  const found = [];
  for (const file of out.split('\0').filter(Boolean)) {
    let bytes;
    try {
      bytes = statSync(path.join(dir, file)).size;
    } catch {
      continue; // deleted in the work tree, not yet committed
    }
    if (bytes > LIMIT_BYTES && !FIXTURES.has(file)) found.push({ file, bytes });
  }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
  const found = oversized(dir);
  for (const { file, bytes } of found) {
    console.error(
      `${file} is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the 1 MB a tracked file may be: untrack it (git rm --cached) if it is a build output, or declare it in FIXTURES in scripts/tracked-size.mjs`,
    );
  }
  process.exit(found.length ? 1 : 0);
}
