// @ts-check
// What every release target is and holds, shared by the release plan (publish.mjs) and the
// targets (target-dir.mjs, target-aws.mjs): the Target interface, the records a target
// keeps, and the one reading of a target's state. It lives apart from publish.mjs so that
// the targets need not import the plan that loads them.
import { latestPath } from './export-manifest.mjs';

/** @typedef {import('./export-manifest.mjs').ManifestEntry} ManifestEntry */
/** @typedef {import('./export-manifest.mjs').Redirect} Redirect */

/**
 * A manifest entry as a target records it: with the S3 VersionId of the upload, where the
 * target has versions (aws).
 * @typedef {ManifestEntry & { versionId?: string }} RecordedEntry
 */

/**
 * A published build's record, releases/{id}.json: what a rollback restores from.
 * @typedef {object} ReleaseRecord
 * @property {string} id
 * @property {number} timestamp
 * @property {Redirect[]} redirects
 * @property {Record<string, RecordedEntry>} files
 * @property {Record<string, string>} [products] SKU -> page path of every product page of the
 *   build, which the next release compares with its own (product-moves.mjs); absent in
 *   records saved before issue 40
 * @property {import('./partial.mjs').SiteInputs} [inputs] what every page of the build depends on beyond
 *   its own payload (partial.mjs), which the next build compares with its own to render only
 *   the changed pages; absent in records saved before partial builds
 */

/**
 * A published build as a target lists it (--list-builds).
 * @typedef {object} ReleaseSummary
 * @property {string} id
 * @property {number} timestamp
 * @property {number} files how many files the build has
 */

/**
 * What a target holds, as the release plan reads it.
 * @typedef {object} TargetState
 * @property {ReleaseRecord | null} current the build builds/latest.json names, if its record is known
 * @property {ReleaseRecord[]} unfinished releases that started and did not finish
 * @property {Set<string>} hashed the _next/static/** paths the target has
 * @property {ReleaseSummary[]} releases every published build
 * @property {string[]} notes what the plan should say about the target
 */

/**
 * A target's CDN with a KeyValueStore of route rules (aws only).
 * @typedef {object} TargetEdge
 * @property {(id: string, rules: { key: string, value: string }[]) => Promise<void>} switchTo puts the build's route rules, then makes it the edge's build
 * @property {(paths: string[]) => Promise<void>} invalidate invalidates the CDN and waits until that completes
 * @property {(keepIds: string[]) => Promise<number>} prune deletes the route rules of other builds; answers how many
 */

/**
 * Where a release goes: a local folder (target-dir.mjs) or the AWS bucket (target-aws.mjs).
 * @typedef {object} Target
 * @property {string} name
 * @property {TargetEdge | null} edge
 * @property {() => Promise<TargetState>} state
 * @property {(id: string) => Promise<ReleaseRecord>} readRelease
 * @property {(path: string, body: Buffer, entry: ManifestEntry) => Promise<string | undefined>} put writes a file; answers its version id, if the target has versions
 * @property {(path: string, entry: RecordedEntry) => Promise<void>} restore brings a file back from the target's history
 * @property {(entries: [string, RecordedEntry][]) => Promise<string[]>} missingHistory the paths whose version the target no longer holds
 * @property {(paths: string[]) => Promise<void>} remove
 * @property {(record: ReleaseRecord) => Promise<void>} markStarted
 * @property {(record: ReleaseRecord) => Promise<void>} saveRelease
 * @property {(ids: string[]) => Promise<void>} clearStarted
 * @property {(currentId: string) => Promise<string>} prune drops what the target no longer needs; answers what it did, or ''
 */

/**
 * The state of a target nothing was ever published to.
 * @param {string} [note]
 * @returns {TargetState}
 */
export function emptyState(note) {
  return { current: null, unfinished: [], hashed: new Set(), releases: [], notes: note ? [note] : [] };
}

/**
 * A target's state from what it holds, the same reading for every target.
 * @param {object} held
 * @param {string | undefined} held.latestId the build builds/latest.json names (or nothing)
 * @param {ReleaseRecord | null} held.saved that build's saved manifest (or null)
 * @param {ReleaseRecord[]} held.pending the manifests of releases that started and did not clear
 * @param {ReleaseSummary[]} held.releases the published builds
 * @param {Set<string>} held.hashed the _next/static paths the target has
 * @param {string} held.noLatestNote what to say when the target has no latest.json
 * @returns {TargetState}
 */
export function targetState({ latestId, saved, pending, releases, hashed, noLatestNote }) {
  const state = emptyState();
  if (latestId) {
    // latest.json is written after every file of its build, so a build whose run
    // stopped before saving its manifest is still whole: its pending record says what it is.
    state.current = saved ?? pending.find((r) => r.id === latestId) ?? null;
    if (!state.current) state.notes.push(`${latestPath} names build ${latestId} but no manifest of it is stored: every file is uploaded, none deleted`);
  } else {
    state.notes.push(noLatestNote);
  }
  state.unfinished = pending.filter((r) => r.id !== state.current?.id);
  for (const u of state.unfinished) state.notes.push(`a release of build ${u.id} started and did not finish: the files it may have written count as changed`);
  state.hashed = hashed;
  state.releases = releases;
  return state;
}
