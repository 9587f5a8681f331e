// @ts-check
// The dir target: a local folder standing in for the bucket, served by the local edge.
//
//   PATH/site/                  what the edge serves (its SITE_DIR)
//   PATH/releases/{id}.json     each published build's manifest
//   PATH/releases/pending/      the manifest of a release that has started and not finished
//   PATH/versions/{sha256}      content-addressed copies of every published file: the
//                               local counterpart of S3 versioning, which rollback restores from
//   PATH/versions/{sha256}.gz   the same for a file stored gzip-compressed (its entry's
//                               contentEncoding; sha256 is of the raw bytes)
//
// A file stored compressed sits in the site folder as PATH/site/{path}.gz, as nginx's
// gzip_static has it: the local edge serves it with Content-Encoding: gzip (or decompresses
// it for a client that does not take gzip). Exactly one form of a file is there: placing
// one removes the other, so a rollback to a release saved before gzip storage (entries
// without contentEncoding) puts the raw files back in place of the .gz ones.
//
// Every file lands by rename from a temporary file in the same folder, so a running edge
// never serves a half-written file. Site files are hard links to their version (no second
// copy of a 500 MB export), with a fresh mtime so the edge's ETag and Last-Modified change.
// Only the newest KEEP_LOCAL_BUILDS builds stay restorable; older manifests and the
// versions nothing else needs are pruned, so .local/ does not grow with every run.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, rmdir, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { latestPath, listRelative } from './export-manifest.mjs';
import { targetState } from './target-state.mjs';
import { CONCURRENCY, mapLimit } from './map-limit.mjs';

/** The suffix of a file stored gzip-compressed, in the site folder and the versions. */
const GZ = '.gz';
/** The name of a file's form in the site folder and its versions: rel or rel.gz.
 * @param {string} name
 * @param {{ contentEncoding?: string }} entry */
const storedName = (name, entry) => (entry.contentEncoding === 'gzip' ? name + GZ : name);

/** @typedef {import('./target-state.mjs').Target} Target */
/** @typedef {import('./target-state.mjs').ReleaseRecord} ReleaseRecord */

/** Builds a local release folder keeps restorable (besides the current one). */
export const KEEP_LOCAL_BUILDS = 3;

const tmpName = (/** @type {string} */ file) => path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);

/** Writes a file so that readers see the old or the new bytes, never a part.
 * @param {string} file
 * @param {string | Buffer} data */
export async function writeAtomic(file, data) {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = tmpName(file);
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** The JSON in file, or null when there is no such file.
 * @param {string} file
 * @returns {Promise<any>} */
async function readJsonOrNull(file) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw new Error(`${file} is unreadable: ${err.message}`);
  }
}

/** The dir target over the folder root.
 * @param {string} root
 * @param {{ keepBuilds?: number }} [options]
 * @returns {Target} */
export function createDirTarget(root, { keepBuilds = KEEP_LOCAL_BUILDS } = {}) {
  const siteDir = path.join(root, 'site');
  const releasesDir = path.join(root, 'releases');
  const pendingDir = path.join(releasesDir, 'pending');
  const versionsDir = path.join(root, 'versions');
  /** The version of an entry: its sha256, with .gz for the compressed form.
   * @param {{ sha256: string, contentEncoding?: string }} entry */
  const versionName = (entry) => storedName(entry.sha256, entry);
  const versionFile = (/** @type {string} */ name) => path.join(versionsDir, name);
  const siteFile = (/** @type {string} */ rel) => {
    const file = path.join(siteDir, rel);
    if (!file.startsWith(siteDir + path.sep)) throw new Error(`refusing a path outside the site folder: ${rel}`);
    return file;
  };

  /** Puts a site file in place from its version: a hard link, or a copy where links fail;
   * then removes the file's other form (rel.gz for a raw file, rel for a compressed one),
   * after the new one is there, so the edge always finds one of them.
   * @param {string} rel
   * @param {import('./target-state.mjs').RecordedEntry} entry */
  async function place(rel, entry) {
    const dest = siteFile(storedName(rel, entry));
    const other = siteFile(entry.contentEncoding === 'gzip' ? rel : rel + GZ);
    const version = versionName(entry);
    await mkdir(path.dirname(dest), { recursive: true });
    const tmp = tmpName(dest);
    try {
      try {
        await link(versionFile(version), tmp);
        const now = new Date();
        await utimes(tmp, now, now);
      } catch (err) {
        if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes(err.code)) throw err;
        await copyFile(versionFile(version), tmp);
      }
      await rename(tmp, dest);
    } finally {
      // rename() between two links of one file does nothing and leaves tmp behind (POSIX);
      // that happens when dest already is this version, e.g. a republished meta file.
      await rm(tmp, { force: true });
    }
    await rm(other, { force: true });
  }

  /** @type {Map<string, Promise<void>>} */
  const storing = new Map(); // version name -> the write of that version

  /** Every readable .json record in dir (none if dir is missing).
   * @param {string} dir
   * @returns {Promise<ReleaseRecord[]>} */
  async function readRecords(dir) {
    const names = existsSync(dir) ? (await readdir(dir)).filter((n) => n.endsWith('.json')) : [];
    return (await Promise.all(names.map((n) => readJsonOrNull(path.join(dir, n))))).filter(Boolean);
  }

  const readReleases = async () => (await readRecords(releasesDir)).sort((a, b) => b.timestamp - a.timestamp);
  const readPending = () => readRecords(pendingDir);

  return {
    name: `dir:${root}`,
    edge: null,

    async state() {
      const latest = await readJsonOrNull(path.join(siteDir, latestPath));
      const releases = await readReleases();
      return targetState({
        latestId: latest?.id,
        saved: releases.find((r) => r.id === latest?.id) ?? null,
        pending: await readPending(),
        releases: releases.map((r) => ({ id: r.id, timestamp: r.timestamp, files: Object.keys(r.files).length })),
        hashed: new Set(listRelative(path.join(siteDir, '_next', 'static')).map((p) => `_next/static/${p.endsWith(GZ) ? p.slice(0, -GZ.length) : p}`)),
        noLatestNote: existsSync(siteDir)
          ? `${root} has no ${latestPath}: every file is uploaded`
          : `${root} holds nothing yet: planning against an empty folder`,
      });
    },

    async readRelease(id) {
      const record = await readJsonOrNull(path.join(releasesDir, `${id}.json`));
      if (!record) throw new Error(`${root} has no manifest of build ${id}`);
      return record;
    },

    async put(rel, body, entry) {
      // body is the file as stored (gzip when entry.contentEncoding says so, publish.mjs).
      // Files with the same bytes share one version; uploads run concurrently, so the
      // first one writes it and the others wait for that write rather than race it.
      const version = versionName(entry);
      if (!storing.has(version)) storing.set(version, existsSync(versionFile(version)) ? Promise.resolve() : writeAtomic(versionFile(version), body));
      await storing.get(version);
      await place(rel, entry);
      return undefined; // a folder has no version ids: the sha256 (and .gz) names the version
    },

    async restore(rel, entry) {
      await place(rel, entry);
    },

    async missingHistory(entries) {
      return entries.filter(([, e]) => !existsSync(versionFile(versionName(e)))).map(([p]) => p);
    },

    async remove(rels) {
      await mapLimit(rels, CONCURRENCY, async (rel) => {
        for (const name of [rel, rel + GZ]) {
          await unlink(siteFile(name)).catch((err) => {
            if (err.code !== 'ENOENT') throw err;
          });
        }
        // Drop folders the delete emptied, so a removed page's folder goes too.
        for (let dir = path.dirname(siteFile(rel)); dir.startsWith(siteDir + path.sep); dir = path.dirname(dir)) {
          try {
            await rmdir(dir);
          } catch {
            break; // not empty (or gone): stop climbing
          }
        }
      });
    },

    async markStarted(record) {
      await writeAtomic(path.join(pendingDir, `${record.id}.json`), JSON.stringify(record));
    },

    async saveRelease(record) {
      await writeAtomic(path.join(releasesDir, `${record.id}.json`), JSON.stringify(record));
    },

    async clearStarted(ids) {
      for (const id of ids) await rm(path.join(pendingDir, `${id}.json`), { force: true });
    },

    /** Keeps the newest builds and the current one restorable; deletes older manifests
     * and every version no kept manifest (or unfinished release) refers to. */
    async prune(currentId) {
      const releases = await readReleases();
      const keep = new Set([...releases.slice(0, keepBuilds).map((r) => r.id), currentId]);
      const dropped = releases.filter((r) => !keep.has(r.id));
      for (const r of dropped) await rm(path.join(releasesDir, `${r.id}.json`), { force: true });
      /** @type {Set<string>} */
      const needed = new Set();
      for (const r of [...releases.filter((r) => keep.has(r.id)), ...(await readPending())]) {
        for (const e of Object.values(r.files)) needed.add(versionName(e));
      }
      const versions = existsSync(versionsDir) ? await readdir(versionsDir) : [];
      const unneeded = versions.filter((v) => !needed.has(v) && !v.endsWith('.tmp'));
      await mapLimit(unneeded, CONCURRENCY, (v) => rm(versionFile(v), { force: true }));
      return dropped.length ? `${dropped.length} old local build(s) pruned (${unneeded.length} versions)` : '';
    },
  };
}
