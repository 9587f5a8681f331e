// @ts-check
// The release plan and its execution, the same for every target (a local folder or the
// AWS bucket). Order is the point: a browser tab of the previous build must keep working
// while files change under it, and a tab must only learn the new build id (latest.json)
// once everything of the new build is in place and the CDN holds it.
//
//   1. validate the export and hash every file (export-manifest.mjs)
//   2. hashed assets       _next/static/** the target lacks; never re-uploaded, never deleted
//   3. pages and payloads  every other file (not builds/**) whose bytes changed
//   4. route rules manifest builds/meta/{id}.json
//   5. route rules at the edge (aws) the build's redirects into the KeyValueStore, then `build`
//   6. CDN invalidation (aws) /* and wait for it
//   7. latest              builds/latest.json, last
//   8. save manifest       releases/{id}.json (with S3 VersionIds), the record rollback needs
//   9. clean up            files of the previous build this one lacks, old builds' KVS rules
//
// A target (the Target type of target-state.mjs) is an object with: name, edge (null, or
// { switchTo, invalidate, prune } for a CDN with a KeyValueStore), state(), readRelease(id),
// put(path, body, entry) -> versionId, restore(path, entry), missingHistory(entries),
// remove(paths), markStarted(record), saveRelease(record), clearStarted(ids),
// prune(currentId). See target-dir.mjs and target-aws.mjs. put gets the bytes as they are
// stored: a compressible file's gzip (its entry's contentEncoding, export-manifest.mjs),
// compressed here, once, for every target.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { say } from './lib.mjs';
import { CONCURRENCY, mapLimit } from './map-limit.mjs';
import { isHashedAsset, latestBody, latestPath, manifestEntry, metaPath, readExport, sameStored, storedBody, storedSizeOf } from './export-manifest.mjs';
import { withCarriedPages } from './partial.mjs';
import { mergeProductRedirects, pagePathOf } from './product-moves.mjs';
import { refuseIf } from './release-checks.mjs';
import { emptyState } from './target-state.mjs';

// The release command and the tests plan against an empty target too.
export { emptyState };

/** @typedef {import('./export-manifest.mjs').Export} Export */
/** @typedef {import('./export-manifest.mjs').Redirect} Redirect */
/** @typedef {import('./target-state.mjs').ReleaseRecord} ReleaseRecord */
/** @typedef {import('./target-state.mjs').ReleaseSummary} ReleaseSummary */
/** @typedef {import('./target-state.mjs').Target} Target */
/** @typedef {import('./target-state.mjs').TargetState} TargetState */

/**
 * One phase of a plan: its name (a PHASE) and what it acts on: the files it writes
 * (skipped: how many it leaves as they are), the route rules it puts at the edge, the
 * paths it invalidates, or what the clean up deletes, keeps and clears.
 * @typedef {{ name: typeof PHASE.hashed | typeof PHASE.pages | typeof PHASE.meta | typeof PHASE.latest, files: string[], skipped?: number }
 *   | { name: typeof PHASE.edge, rules: { key: string, value: string }[] }
 *   | { name: typeof PHASE.invalidate, paths: string[] }
 *   | { name: typeof PHASE.save }
 *   | { name: typeof PHASE.cleanup, deletes: string[], keepEdgeRulesOf: string[], clearStarted: string[] }} Phase
 */

/**
 * A release or rollback plan (planRelease).
 * @typedef {object} Plan
 * @property {'release' | 'rollback'} kind
 * @property {ReleaseRecord} build
 * @property {string | null} previousId
 * @property {string[]} notes
 * @property {Record<string, string>} carried the S3 version ids of the files not uploaded, by path
 * @property {Record<string, Buffer>} bodies files whose bytes the plan wrote rather than the export (the meta file, with the renamed products' redirects)
 * @property {Phase[]} phases
 */

/** @typedef {(message: string) => void} Log */

export const PHASE = /** @type {const} */ ({
  hashed: 'hashed assets',
  pages: 'pages and payloads',
  meta: 'route rules manifest',
  edge: 'route rules at the edge',
  invalidate: 'CDN invalidation',
  latest: 'latest',
  save: 'save manifest',
  cleanup: 'clean up',
});

/** The KeyValueStore keeps the route rules of this many newest published builds (plus
 * the current one), so a rollback to any of them finds its rules still there. */
export const KEEP_EDGE_RULES_OF = 10;

/** Never deleted by a clean up: hashed assets serve open tabs of older builds, and meta
 * files are tiny and let the edge serve any build a rollback brings back. */
const isKept = (/** @type {string} */ p) => isHashedAsset(p) || p.startsWith('builds/meta/');

/** The KVS entries of a build's route rules (format fixed by the CloudFront function).
 * @param {string} id
 * @param {Redirect[]} redirects
 * @returns {{ key: string, value: string }[]} */
export function edgeRuleEntries(id, redirects) {
  return redirects.map((r) => ({ key: `r:${id}:${r.source}`, value: JSON.stringify({ target: r.target, status: r.status }) }));
}

/** CloudFront KeyValueStore limits: keys up to 512 bytes, values up to 1 KB.
 * @param {{ key: string, value: string }[]} entries */
function checkEdgeRules(entries) {
  for (const { key, value } of entries) {
    if (Buffer.byteLength(key) > 512) throw new Error(`route rule key ${key.slice(0, 80)}… is over the KeyValueStore's 512-byte key limit`);
    if (Buffer.byteLength(value) > 1024) throw new Error(`route rule ${key} has a value over the KeyValueStore's 1 KB limit`);
  }
}

/** The build ids whose KVS rules a clean up keeps: the newest published ones and the
 * build being made current (a rollback may bring back an older one).
 * @param {ReleaseSummary[]} releases
 * @param {{ id: string, timestamp: number }} build */
function edgeRulesToKeep(releases, build) {
  const all = [...releases.filter((r) => r.id !== build.id), { id: build.id, timestamp: build.timestamp }];
  all.sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : -1));
  return [...new Set([...all.slice(0, KEEP_EDGE_RULES_OF).map((r) => r.id), build.id])];
}

/** An export with the route rules it needs on a target whose current build is `previous`:
 * a 301 from each old address of a renamed product to its new one (product-moves.mjs).
 * The meta file is rewritten with them, so the bytes published and their manifest entry
 * are the new file's; answers the export as it is published and the meta file's bytes,
 * or no bytes when nothing moved (the export's own file is published as it is).
 * @param {Export} exp
 * @param {ReleaseRecord | null} previous
 * @returns {{ build: Export, meta: Buffer | null }} */
export function withProductRedirects(exp, previous) {
  /** @type {Set<string>} */
  const pages = new Set();
  for (const rel of Object.keys(exp.files)) {
    const page = pagePathOf(rel);
    if (page) pages.add(page);
  }
  const redirects = mergeProductRedirects({ redirects: exp.redirects, products: exp.products, pages }, previous);
  if (JSON.stringify(redirects) === JSON.stringify(exp.redirects)) return { build: exp, meta: null };
  const rel = metaPath(exp.id);
  const meta = Buffer.from(JSON.stringify({ ...exp.meta, redirects }));
  return { build: { ...exp, redirects, meta: { ...exp.meta, redirects }, files: { ...exp.files, [rel]: manifestEntry(rel, meta) } }, meta };
}

/** Plans publishing `build` ({ id, timestamp, redirects, files }) onto a target in
 * `state`; kind 'rollback' restores an earlier build from the target's history instead of
 * uploading from an export, and does not save its (already saved) manifest.
 * @param {ReleaseRecord} build
 * @param {TargetState} state
 * @param {{ kind?: 'release' | 'rollback' }} [options]
 * @returns {Plan} */
export function planRelease(build, state, { kind = 'release' } = {}) {
  /** @type {Record<string, Buffer>} */
  const bodies = {};
  if (kind === 'release' && 'products' in build && 'meta' in build) {
    // A partial build's export holds only the pages it rendered: the rest come from the
    // current release (partial.mjs), before the renamed products are looked for.
    build = withCarriedPages(/** @type {Export} */ (build), state.current, state.unfinished);
    const moved = withProductRedirects(/** @type {Export} */ (build), state.current);
    build = moved.build;
    if (moved.meta) bodies[metaPath(build.id)] = moved.meta;
  }
  /** @type {ReleaseRecord['files']} */
  const current = state.current?.files ?? {};
  // A release that started and never finished may have overwritten any of its files:
  // those are not what the current manifest says, so they count as changed.
  /** @type {Set<string>} */
  const dirty = new Set();
  for (const u of state.unfinished) {
    for (const [p, e] of Object.entries(u.files)) if (!sameStored(current[p], e)) dirty.add(p);
  }
  const paths = Object.keys(build.files);
  const hashed = paths.filter(isHashedAsset);
  const pages = paths.filter((p) => !isHashedAsset(p) && !p.startsWith('builds/'));
  // A file counts as changed when its bytes or the way it is stored changed: the first
  // release with gzip storage writes every compressible page again, compressed.
  const changedPages = pages.filter((p) => dirty.has(p) || !sameStored(current[p], build.files[p]));
  // A hashed asset the target has is never written again, unless the current build
  // records it stored another way (then this build's record would not match the target).
  const uploadHashed = hashed.filter((p) => !state.hashed.has(p) || (current[p] && !sameStored(current[p], build.files[p])));
  const buildSet = new Set(paths);
  const previous = new Set([...Object.keys(current), ...dirty]);
  const deletes = [...previous].filter((p) => !buildSet.has(p) && !isKept(p)).sort();

  // Files not uploaded keep the S3 version the current manifest recorded.
  /** @type {Record<string, string>} */
  const carried = {};
  for (const p of paths) {
    if (sameStored(current[p], build.files[p]) && current[p].versionId && !dirty.has(p)) carried[p] = current[p].versionId;
  }
  const edgeRules = edgeRuleEntries(build.id, build.redirects);
  checkEdgeRules(edgeRules);

  /** @type {Phase[]} */
  const phases = [
    { name: PHASE.hashed, files: uploadHashed, skipped: hashed.length - uploadHashed.length },
    { name: PHASE.pages, files: changedPages, skipped: pages.length - changedPages.length },
    { name: PHASE.meta, files: [metaPath(build.id)] },
    { name: PHASE.edge, rules: edgeRules },
    { name: PHASE.invalidate, paths: ['/*'] },
    { name: PHASE.latest, files: [latestPath] },
  ];
  if (kind === 'release') phases.push({ name: PHASE.save });
  phases.push({
    name: PHASE.cleanup,
    deletes,
    keepEdgeRulesOf: edgeRulesToKeep(state.releases, build),
    clearStarted: state.unfinished.map((u) => u.id),
  });
  return { kind, build, previousId: state.current?.id ?? null, notes: state.notes ?? [], carried, bodies, phases };
}

/** Every file the plan writes, in order.
 * @param {Plan} plan
 * @returns {string[]} */
export const plannedWrites = (plan) => plan.phases.flatMap((ph) => ('files' in ph ? ph.files : []));

const nf = new Intl.NumberFormat('en-GB');
/** n and the word, plural unless n is 1: "3 files".
 * @param {number} n
 * @param {string} word */
export const count = (n, word) => `${nf.format(n)} ${word}${n === 1 ? '' : 's'}`;

/** The bytes of the listed paths of a manifest, as they are stored (compressed where the
 * entry says so): what an upload sends and the target holds.
 * @param {Record<string, { size: number, storedSize?: number }>} files
 * @param {string[]} paths
 * @returns {number} */
const sizeOf = (files, paths) => paths.reduce((s, p) => s + storedSizeOf(files[p]), 0);
/** The raw bytes of the listed paths (the export's own). @param {Record<string, { size: number }>} files @param {string[]} paths */
const rawSizeOf = (files, paths) => paths.reduce((s, p) => s + files[p].size, 0);
/** "1.2 MB" or, when some files are stored compressed, "1.2 MB, 0.3 MB as stored".
 * @param {Record<string, { size: number, storedSize?: number }>} files
 * @param {string[]} paths */
const sizesOf = (files, paths) => {
  const raw = rawSizeOf(files, paths);
  const stored = sizeOf(files, paths);
  return raw === stored ? formatBytes(raw) : `${formatBytes(raw)}, ${formatBytes(stored)} as stored`;
};
/** Bytes for people: 1.2 MB (SI units, like S3's console).
 * @param {number} n */
export function formatBytes(n) {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = -1;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** The plan as a release engineer reads it: each phase in order with its file count and
 * bytes, grouped by (Cache-Control, Content-Type) with up to 5 example paths per group, or
 * every path with `list`. `edge`: true for a target with a KVS and CDN (aws), false for
 * one without (dir), unset when no target was named.
 * @param {Plan} plan
 * @param {{ target?: string, edge?: boolean, list?: boolean, exportDir?: string }} [options]
 * @returns {string} */
export function describePlan(plan, { target = 'none', edge, list = false, exportDir } = {}) {
  const { build } = plan;
  const files = build.files;
  const all = Object.keys(files);
  const out = [];
  const verb = plan.kind === 'rollback' ? 'restore' : 'upload';
  out.push(
    plan.kind === 'rollback'
      ? `Rollback plan: make build ${build.id} current again (${count(all.length, 'file')}, ${sizesOf(files, all)})`
      : `Release plan: build ${build.id} from ${exportDir ?? 'the export'} (${count(all.length, 'file')}, ${sizesOf(files, all)})`,
  );
  out.push(`  target: ${target}`);
  out.push(`  current build at the target: ${plan.previousId ?? 'none'}`);
  for (const note of plan.notes) out.push(`  note: ${note}`);
  out.push('');
  let n = 1;
  if (plan.kind === 'release')
    out.push(
      `${n++}. validate the export: index.html, 404.html, builds/latest.json, builds/meta/${build.id}.json present; ${count(all.length, 'file')} hashed`,
    );
  const onlyEdge = edge === true ? '' : edge === false ? ' (skipped: this target has no CDN)' : ' (aws target only)';
  for (const ph of plan.phases) {
    const head = `${n++}. ${ph.name}:`;
    if ('files' in ph) {
      const skipped = ph.skipped ? ` (${nf.format(ph.skipped)} ${ph.name === PHASE.hashed ? 'already at the target, kept' : 'unchanged, skipped'})` : '';
      out.push(`${head} ${verb} ${count(ph.files.length, 'file')}, ${formatBytes(sizeOf(files, ph.files))}${skipped}`);
      out.push(...describeGroups(ph.files, files, list));
    } else if (ph.name === PHASE.edge) {
      const local = edge === false ? ' (skipped: the local edge reads builds/meta itself)' : onlyEdge;
      out.push(`${head} put ${count(ph.rules.length, 'route rule')} as r:${build.id}:{source}, then build = ${build.id}${local}`);
      for (const r of list ? ph.rules : ph.rules.slice(0, 5)) out.push(`       ${r.key} = ${r.value}`);
      if (!list && ph.rules.length > 5) out.push(`       … and ${nf.format(ph.rules.length - 5)} more`);
    } else if (ph.name === PHASE.invalidate) {
      out.push(`${head} invalidate ${ph.paths.join(' ')} and wait until it completes${onlyEdge}`);
    } else if (ph.name === PHASE.save) {
      out.push(`${head} releases/${build.id}.json (the record a rollback restores from)`);
    } else if (ph.name === PHASE.cleanup) {
      out.push(
        plan.previousId || ph.deletes.length
          ? `${head} delete ${count(ph.deletes.length, 'file')} of build ${plan.previousId ?? '(unfinished)'} that ${build.id} no longer has (_next/static/** and builds/meta/** are kept)`
          : `${head} no previous build, so no files to delete`,
      );
      out.push(...describeList(ph.deletes, list));
      out.push(`     KVS: delete route rules of builds other than ${ph.keepEdgeRulesOf.join(', ')}${onlyEdge}`);
    }
  }
  return out.join('\n');
}

/** Groups paths by (Cache-Control, Content-Type), biggest group first.
 * @param {string[]} paths
 * @param {ReleaseRecord['files']} files
 * @param {boolean} list
 * @returns {string[]} */
function describeGroups(paths, files, list) {
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const p of paths) {
    const key = `${files[p].cacheControl} | ${files[p].contentType}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(p);
  }
  const out = [];
  for (const [key, ps] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    const bytes = sizeOf(files, ps);
    out.push(`     ${count(ps.length, 'file').padStart(12)} ${formatBytes(bytes).padStart(9)}  ${key}`);
    out.push(...describeList(ps, list, ' '.repeat(29))); // under the Cache-Control column
  }
  return out;
}

/** The paths, one a line under indent: the first 5, or every one with list.
 * @param {string[]} paths
 * @param {boolean} list
 * @returns {string[]} */
function describeList(paths, list, indent = '       ') {
  const shown = list ? paths : paths.slice(0, 5);
  const out = shown.map((p) => indent + p);
  if (shown.length < paths.length) out.push(`${indent}… and ${nf.format(paths.length - shown.length)} more`);
  return out;
}

/** Runs a plan against a target. source(path) answers the bytes to upload, or null to
 * restore the file from the target's history (rollback). Answers the saved record.
 * @param {Plan} plan
 * @param {Target} target
 * @param {{ source: (path: string) => Promise<Buffer> | Buffer | null, log?: Log, firstStep?: number }} options
 * @returns {Promise<ReleaseRecord>} */
export async function executePlan(plan, target, { source, log = (m) => say('release', m), firstStep = 1 }) {
  const { build } = plan;
  /** @type {ReleaseRecord} */
  const record = { id: build.id, timestamp: build.timestamp, redirects: build.redirects, files: structuredClone(build.files) };
  if (build.products) record.products = build.products;
  if (build.inputs) record.inputs = build.inputs;
  for (const [p, v] of Object.entries(plan.carried)) record.files[p].versionId = v;
  const total = plan.phases.length + firstStep - 1;
  const tag = (/** @type {number} */ i, /** @type {Phase} */ ph) => `${i + firstStep}/${total} ${ph.name}`;

  // Recorded before the first write: should this run stop half-way, the next one knows
  // which files may no longer match the current build's manifest.
  await target.markStarted(record);
  for (const [i, ph] of plan.phases.entries()) {
    const started = performance.now();
    const took = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;
    if ('files' in ph) {
      let lastReport = performance.now();
      await mapLimit(
        ph.files,
        CONCURRENCY,
        async (p) => {
          const entry = build.files[p];
          // The gzip readExport made of this file (export-manifest.mjs), else its bytes.
          const cached = p in plan.bodies ? undefined : /** @type {Partial<Export>} */ (build).storedBodies?.get(p);
          const body = plan.bodies[p] ?? cached ?? (await source(p));
          if (body === null) {
            await target.restore(p, entry);
          } else {
            const stored = cached ?? (await storedBody(entry, body));
            if (stored.length !== storedSizeOf(entry)) {
              throw new Error(`${p}: ${stored.length} bytes to store, its manifest says ${storedSizeOf(entry)} (the file changed since the export was read?)`);
            }
            const versionId = await target.put(p, stored, entry);
            if (versionId) record.files[p].versionId = versionId;
          }
        },
        (done) => {
          if (performance.now() - lastReport > 5000) {
            lastReport = performance.now();
            log(`${tag(i, ph)}: ${nf.format(done)}/${nf.format(ph.files.length)}`);
          }
        },
      );
      const bytes = sizeOf(build.files, ph.files);
      const skipped = ph.skipped ? `, ${nf.format(ph.skipped)} ${ph.name === PHASE.hashed ? 'already there' : 'unchanged'}` : '';
      log(
        `${tag(i, ph)}: ${count(ph.files.length, 'file')}, ${formatBytes(bytes)} ${plan.kind === 'rollback' ? 'restored' : 'uploaded'}${skipped} (${took()})`,
      );
    } else if (ph.name === PHASE.edge) {
      if (!target.edge) log(`${tag(i, ph)}: skipped (${target.name} has no CDN; its edge reads builds/meta itself)`);
      else {
        await target.edge.switchTo(build.id, ph.rules);
        log(`${tag(i, ph)}: ${count(ph.rules.length, 'route rule')} put, build = ${build.id} (${took()})`);
      }
    } else if (ph.name === PHASE.invalidate) {
      if (!target.edge) log(`${tag(i, ph)}: skipped (${target.name} has no CDN)`);
      else {
        await target.edge.invalidate(ph.paths);
        log(`${tag(i, ph)}: ${ph.paths.join(' ')} completed (${took()})`);
      }
    } else if (ph.name === PHASE.save) {
      await target.saveRelease(record);
      log(`${tag(i, ph)}: releases/${build.id}.json`);
    } else if (ph.name === PHASE.cleanup) {
      await target.remove(ph.deletes);
      const rules = target.edge ? await target.edge.prune(ph.keepEdgeRulesOf) : 0;
      const pruned = await target.prune(build.id);
      await target.clearStarted([...new Set([...ph.clearStarted, build.id])]);
      log(
        `${tag(i, ph)}: ${count(ph.deletes.length, 'file')} of the previous build deleted${target.edge ? `, ${count(rules, 'old route rule')} removed` : ''}${pruned ? `, ${pruned}` : ''}`,
      );
    }
  }
  return record;
}

/**
 * The AWS target's configuration: the stack's bucket, distribution and KeyValueStore.
 * @typedef {object} AwsConfig
 * @property {string} bucket
 * @property {string} distributionId
 * @property {string} kvsArn
 * @property {string} region
 */

/** Checks the AWS target's configuration; throws naming every missing variable.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {AwsConfig} */
export function awsConfig(env = process.env) {
  const vars = {
    bucket: ['RELEASE_BUCKET', 'stack output SiteBucketName'],
    distributionId: ['RELEASE_DISTRIBUTION_ID', 'stack output DistributionId'],
    kvsArn: ['RELEASE_KVS_ARN', 'stack output RouteRulesStoreArn'],
    region: ['AWS_REGION', 'e.g. eu-west-2'],
  };
  const missing = Object.values(vars).filter(([name]) => !env[name]);
  if (missing.length) {
    throw new Error(`--target aws needs ${missing.map(([name, from]) => `${name} (${from})`).join(', ')}`);
  }
  return /** @type {AwsConfig} */ (Object.fromEntries(Object.entries(vars).map(([k, [name]]) => [k, env[name]])));
}

/** Opens a target from its CLI spelling: dir:PATH or aws. The AWS SDK is loaded only
 * here, so everything else (dry-runs, the dir target) needs none of it.
 * @param {unknown} spec
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<Target>} */
export async function openTarget(spec, env = process.env) {
  if (typeof spec === 'string' && spec.startsWith('dir:') && spec.length > 4) {
    const { createDirTarget } = await import('./target-dir.mjs');
    return createDirTarget(path.resolve(spec.slice(4)));
  }
  if (spec === 'aws') {
    const config = awsConfig(env);
    const { createAwsTarget } = await import('./target-aws.mjs');
    return createAwsTarget(config);
  }
  throw new Error(`--target must be dir:PATH or aws, not "${spec}"`);
}

/** Publishes an export folder onto a target; answers the saved record.
 * @param {object} options
 * @param {string} options.exportDir
 * @param {Target} options.target
 * @param {Log} [options.log]
 * @param {{ inspect: (rel: string, body: Buffer) => void, problems: (exp: Export) => string[] }} [options.scan]
 * @returns {Promise<ReleaseRecord>} */
export async function publishExport({ exportDir, target, log = (m) => say('release', m), scan }) {
  // scan (release-checks.mjs exportScan): refuses the export, every problem named, before
  // anything is written.
  const exp = await readExport(exportDir, { inspect: scan?.inspect });
  if (scan) refuseIf(scan.problems(exp), `publish ${exportDir} to ${target.name}`);
  const plan = planRelease(exp, await target.state());
  const stored = exp.storedBytes !== undefined && exp.storedBytes !== exp.bytes ? `, ${formatBytes(exp.storedBytes)} as stored` : '';
  log(`1/${plan.phases.length + 1} validate: export ${exportDir} holds build ${exp.id}, ${count(exp.count, 'file')}, ${formatBytes(exp.bytes)}${stored}`);
  for (const note of plan.notes) log(`note: ${note}`);
  log(`publishing build ${exp.id} to ${target.name} (current: ${plan.previousId ?? 'none'})`);
  return executePlan(plan, target, { source: (p) => readFile(path.join(exp.dir, p)), log, firstStep: 2 });
}

/** Plans making an earlier published build current again; refuses an unknown id and a
 * build whose history the target no longer has, before anything is written.
 * @param {Target} target
 * @param {string} id
 * @returns {Promise<Plan>} */
export async function planRollback(target, id) {
  const state = await target.state();
  const known = state.releases.map((r) => r.id);
  if (!known.includes(id)) {
    throw new Error(`build ${id} was never published to ${target.name}; known builds: ${known.join(', ') || 'none'}`);
  }
  const build = await target.readRelease(id);
  // latest.json is written fresh (its content is fixed by the build), everything else
  // comes back from the target's history, which must still hold it.
  const latest = latestBody(build);
  build.files[latestPath] = { ...build.files[latestPath], ...manifestEntry(latestPath, latest) };
  const plan = planRelease(build, state, { kind: 'rollback' });
  const restores = plannedWrites(plan)
    .filter((p) => p !== latestPath)
    .map((p) => /** @type {[string, ReleaseRecord['files'][string]]} */ ([p, build.files[p]]));
  const missing = await target.missingHistory(restores);
  if (missing.length) {
    throw new Error(
      `cannot roll back to ${id}: ${target.name} no longer holds ${count(missing.length, 'file')} of it (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`,
    );
  }
  return plan;
}

/** Makes an earlier published build current again.
 * @param {{ target: Target, id: string, log?: Log }} options
 * @returns {Promise<Plan>} */
export async function rollback({ target, id, log = (m) => say('release', m) }) {
  const plan = await planRollback(target, id);
  log(`rolling ${target.name} back from ${plan.previousId ?? 'none'} to ${id}`);
  const latest = latestBody(plan.build);
  await executePlan(plan, target, { source: (p) => (p === latestPath ? latest : null), log });
  return plan;
}
