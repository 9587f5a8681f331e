// @ts-check
// What one page of the export weighs, what the release folder holds (raw, and as the
// release stores it: compressible files gzip-compressed), and where a build's time went: the bench's `pages` figures (docs/PERFORMANCE.md, issue 19).
//
//   node scripts/bench-pages.mjs [EXPORT_DIR] [PAGE_PATH ...]   # sizes of those pages, as JSON
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { gzipStored, listRelative, storedEncoding } from './export-manifest.mjs';

/** Targets of issue 19 for one category page. */
export const CATEGORY_HTML_TARGET = 60_000;
export const CATEGORY_PAGE_TARGET = 150_000;
/** Target of issue 19 for the release folder of 3,000 products (the export, raw). */
export const RELEASE_TARGET = 150_000_000;
/** Hugo's output for the same 3,000 products (the bench's hugo figure, issue 40). */
export const HUGO_BYTES = 68_000_000;
/** Target of issue 40 for the release as stored (compressible files gzip-compressed, as the
 * release stores them: export-manifest.mjs storedEncoding): at most twice Hugo's output. */
export const RELEASE_STORED_TARGET = 2 * HUGO_BYTES;

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Whether a folder holds a page (an index.html) at any depth. */
function holdsPage(dir) {
  return readdirSync(dir, { withFileTypes: true }).some((e) => (e.isFile() ? e.name === 'index.html' : e.isDirectory() && holdsPage(path.join(dir, e.name))));
}

/** The files of the export that belong to the page at pagePath, relative to its folder:
 * every file in the folder (index.html, the RSC .txt files, _payload.json, whatever the
 * build puts there), and the files of any subfolder that holds no page of its own (a
 * subfolder with an index.html at any depth is another page, or pages). At the export's
 * root (the home page) only the folder's own files count, as the site-wide folders
 * (_next, builds, sitemaps) live there. */
export function pageFiles(exportDir, pagePath) {
  const dir = path.join(exportDir, pagePath);
  if (!existsSync(path.join(dir, 'index.html'))) throw new Error(`${pagePath} has no index.html in ${exportDir}`);
  const atRoot = path.resolve(dir) === path.resolve(exportDir);
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile()) out.push(e.name);
    else if (e.isDirectory() && !atRoot && !holdsPage(path.join(dir, e.name))) {
      out.push(...listRelative(path.join(dir, e.name)).map((rel) => `${e.name}/${rel}`));
    }
  }
  return out.sort();
}

/** Sizes of one page: { path, files: [{ name, rawBytes, gzipBytes }], htmlBytes,
 * rawBytes, gzipBytes } (gzip level 9, each file on its own, as the CDN serves them). */
export function pageSizes(exportDir, pagePath) {
  const files = pageFiles(exportDir, pagePath).map((name) => {
    const body = readFileSync(path.join(exportDir, pagePath, name));
    return { name, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
  });
  const sum = (k) => files.reduce((s, f) => s + f[k], 0);
  return {
    path: pagePath,
    files,
    htmlBytes: files.find((f) => f.name === 'index.html')?.rawBytes ?? 0,
    rawBytes: sum('rawBytes'),
    gzipBytes: sum('gzipBytes'),
  };
}

/** The kind of a file of the export, for the release folder's breakdown. */
export function fileKind(rel) {
  if (rel.startsWith('_next/')) return 'assets (_next)';
  const base = path.posix.basename(rel);
  if (base === '_payload.json') return 'payloads (_payload.json)';
  if (rel.endsWith('.html')) return 'HTML';
  if (rel.endsWith('.txt') && base !== 'robots.txt') return 'RSC (.txt)';
  return 'other';
}

/** What an export holds, raw and as a release stores it (a compressible file's gzip, level
 * 9, as export-manifest.mjs makes it; other files as they are): { files, bytes, storedBytes,
 * kinds: { kind: { files, bytes, storedBytes } } }. */
export function folderSummary(dir) {
  const kinds = {};
  let bytes = 0;
  let storedBytes = 0;
  const rels = listRelative(dir);
  for (const rel of rels) {
    const file = path.join(dir, rel);
    const size = statSync(file).size;
    const stored = storedEncoding(rel) ? gzipStored(readFileSync(file)).length : size;
    bytes += size;
    storedBytes += stored;
    const k = (kinds[fileKind(rel)] ??= { files: 0, bytes: 0, storedBytes: 0 });
    k.files++;
    k.bytes += size;
    k.storedBytes += stored;
  }
  return { files: rels.length, bytes, storedBytes, kinds };
}

/** Where a `next build` spent its time, from the text of its trace file (site/.next/trace:
 * JSON arrays of spans, one array a line): the last root span (next-build) with its
 * direct children of at least minSeconds, in start order, leaving out a child that lies
 * inside an earlier one (next-export runs inside static-generation): { seconds, phases:
 * [{ name, seconds }], otherSeconds } where otherSeconds is the rest of next-build (the
 * shorter phases and the gaps between). Answers null when there is no next-build span. */
export function tracePhases(text, { minSeconds = 0.3 } = {}) {
  const spans = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = JSON.parse(line);
      spans.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    } catch {
      // a line cut short by a build that stopped: skip it
    }
  }
  const roots = spans.filter((s) => s.name === 'next-build' && s.parentId === undefined);
  const top = roots.at(-1);
  if (!top) return null;
  const children = spans.filter((s) => s.parentId === top.id && s.traceId === top.traceId).sort((a, b) => a.timestamp - b.timestamp);
  const phases = [];
  let coveredTo = -Infinity;
  for (const s of children) {
    const end = s.timestamp + s.duration;
    if (end <= coveredTo) continue;
    coveredTo = end;
    if (s.duration / 1e6 >= minSeconds) phases.push({ name: s.name, seconds: s.duration / 1e6 });
  }
  const shown = phases.reduce((sum, p) => sum + p.seconds, 0);
  return { seconds: top.duration / 1e6, phases, otherSeconds: Math.max(0, top.duration / 1e6 - shown) };
}

/** CPU seconds (user + system) of this process's children that have ended and been waited
 * for (Linux /proc/self/stat cutime + cstime), or null where there is no /proc. */
export function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** Bytes as kB or MB with one decimal (SI units, like the release plan). */
export const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
export const MB = (n) => `${(n / 1e6).toFixed(1)} MB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'site/out', ...pages] = process.argv.slice(2);
  const list = pages.length ? pages : ['/outlet/section/female-birthday-cards/101/'];
  console.log(
    JSON.stringify(
      list.map((p) => pageSizes(dir, p)),
      null,
      1,
    ),
  );
}
