// @ts-check
// What a release to AWS refuses (docs/build-and-release.md "Safe to publish"): an export
// that would put a local address, the demo Firebase project, the Auth emulator or the
// example shop details in front of buyers. Every problem is named, not only the first.
//
// The build records the site's address and Firebase project in builds/meta/{id}.json
// (siteUrl, firebaseProjectId); the files of the export are scanned as the release reads
// them for the Auth emulator's traces (a loopback host:port, FIREBASE_AUTH_EMULATOR_HOST);
// the shop identity is functions/config/shop.json's, checked by build.mjs's one
// placeholder check.
import { buildSettings, placeholderProblems } from './build.mjs';
import { metaPath } from './export-manifest.mjs';

/** @typedef {import('./build.mjs').ShopConfig} ShopConfig */

/** Loopback and unspecified hosts: nobody but the machine that built the export reaches
 * them. (URL.hostname keeps IPv6 brackets.) */
const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::ffff:127(\.\d{1,3}){3}\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/i;
export const isLoopbackHost = (/** @type {string} */ host) => LOOPBACK.test(host);

/** The environment a build for a local (dir:) target reads the catalogue with, and a note
 * saying which store that is. Without DYNAMODB_ENDPOINT it is scripts/run's DynamoDB Local,
 * http://127.0.0.1:$DYNAMODB_PORT (8000), as scripts/catalogue does; an endpoint that is set
 * empty (the SDK then reads AWS) or is not a loopback address is refused unless allowAws, as
 * the seed refuses one, so a local release never reads a deployed table by accident.
 * @param {NodeJS.ProcessEnv} env
 * @param {{ allowAws?: boolean }} [options]
 * @returns {{ env: NodeJS.ProcessEnv, note: string }} */
export function localStoreEnv(env, { allowAws = false } = {}) {
  const table = env.TABLE_NAME || 'tradeshop';
  if (env.DYNAMODB_ENDPOINT === undefined) {
    const endpoint = `http://127.0.0.1:${env.DYNAMODB_PORT || 8000}`;
    return {
      env: { ...env, DYNAMODB_ENDPOINT: endpoint },
      note: `the catalogue comes from the local store ${endpoint} (table ${table}), as DYNAMODB_ENDPOINT is not set`,
    };
  }
  const endpoint = env.DYNAMODB_ENDPOINT;
  let host = null;
  try {
    host = new URL(endpoint).hostname;
  } catch {
    /* not a URL: refused below */
  }
  const where = endpoint === '' ? `AWS DynamoDB (table ${table})` : `the store at ${endpoint} (table ${table})`;
  if (allowAws) return { env, note: `the catalogue comes from ${where}, as --allow-aws says` };
  if (host && isLoopbackHost(host)) return { env, note: `the catalogue comes from the local store ${endpoint} (table ${table})` };
  const why =
    endpoint === ''
      ? 'DYNAMODB_ENDPOINT is set but empty'
      : host
        ? `DYNAMODB_ENDPOINT ${endpoint} is not a loopback address`
        : `DYNAMODB_ENDPOINT "${endpoint}" is not a URL such as http://127.0.0.1:8000`;
  throw new Error(
    `refusing to build a local release from ${where}: ${why}; unset DYNAMODB_ENDPOINT to read scripts/run's local store, or pass --allow-aws to read that table on purpose`,
  );
}

/** A loopback host with a port, as an emulator address is written (127.0.0.1:9099,
 * localhost:9099, [::1]:9099). The Firebase SDK's own "http://localhost" has no port. */
const LOCAL_ADDRESS = /(?<![\w.-])(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]):\d{2,5}(?!\d)/gi;
/** The server-side switch that turns off token signature checks: never in a site. */
const EMULATOR_VARIABLE = /FIREBASE_AUTH_EMULATOR_HOST/g;
/** Files that can hold text; images and fonts are not scanned. */
const TEXT_FILE = /\.(html|js|mjs|json|txt|xml|css|webmanifest|map|svg)$/i;

/** Problems with the address and Firebase project a build was made for: SITE_URL must be
 * an https address that is not loopback, the project not a `demo-` one.
 * @param {{ siteUrl?: string, firebaseProjectId?: string }} site
 * @returns {string[]} */
export function siteProblems({ siteUrl, firebaseProjectId }, where = 'the export') {
  /** @type {string[]} */
  const problems = [];
  if (!siteUrl) {
    problems.push(`${where} does not record its SITE_URL (a build before the release checks, or not made by scripts/build.mjs): build it again`);
  } else {
    let url = null;
    try {
      url = new URL(siteUrl);
    } catch {
      problems.push(`SITE_URL "${siteUrl}" of ${where} is not a URL`);
    }
    if (url && url.protocol !== 'https:')
      problems.push(`SITE_URL "${siteUrl}" of ${where} is not an https address: buyers and crawlers would be sent to it (canonical links, sitemap)`);
    if (url && isLoopbackHost(url.hostname))
      problems.push(`SITE_URL "${siteUrl}" of ${where} is a loopback address: build with SITE_URL set to the shop's public address`);
  }
  if (!firebaseProjectId) problems.push(`${where} does not record its Firebase project: build it again`);
  else if (/^demo-/i.test(firebaseProjectId))
    problems.push(
      `the Firebase project "${firebaseProjectId}" of ${where} is a demo project (the emulator's; no real sign-in): build with NEXT_PUBLIC_FIREBASE_PROJECT_ID set to the stage's project`,
    );
  return problems;
}

/** Problems a build from env would have, found before building: the address, the
 * project, an Auth emulator URL, the shop's placeholders.
 * @param {NodeJS.ProcessEnv} env
 * @param {ShopConfig} shop */
export function buildEnvProblems(env, shop) {
  const problems = siteProblems(buildSettings(env), 'this build');
  if (env.AUTH_EMULATOR_URL) problems.push(`AUTH_EMULATOR_URL is set (${env.AUTH_EMULATOR_URL}): the site would sign buyers in against the Auth emulator`);
  return [...problems, ...shopProblems(shop)];
}

const shopProblems = (/** @type {ShopConfig} */ shop) => placeholderProblems(shop).map((p) => `functions/config/shop.json: ${p}`);

/** A scan of an export's files as they are read (inspect), then every problem found
 * (problems) once the export is read.
 * @param {ShopConfig} shop
 * @returns {{ inspect: (rel: string, body: Buffer) => void, problems: (exp: import('./export-manifest.mjs').Export) => string[] }} */
export function exportScan(shop) {
  /** @type {Map<string, string[]>} */
  const addresses = new Map(); // host:port -> files
  /** @type {string[]} */
  const variableIn = [];
  return {
    inspect(rel, body) {
      if (!TEXT_FILE.test(rel)) return;
      const text = body.toString('utf8');
      for (const m of new Set(text.match(LOCAL_ADDRESS) ?? [])) {
        const key = m.toLowerCase();
        let files = addresses.get(key);
        if (!files) addresses.set(key, (files = []));
        files.push(rel);
      }
      if (EMULATOR_VARIABLE.test(text)) variableIn.push(rel);
      EMULATOR_VARIABLE.lastIndex = 0;
    },
    /** exp: readExport's answer, with the meta file's siteUrl and firebaseProjectId. */
    problems(exp) {
      const problems = siteProblems(exp.site ?? {}, `build ${exp.id} (${metaPath(exp.id)})`);
      let siteHost = null;
      try {
        siteHost = new URL(exp.site?.siteUrl ?? '').host.toLowerCase();
      } catch {
        /* reported above */
      }
      const files = (/** @type {string[]} */ list) =>
        `${list.slice().sort()[0]}${list.length > 1 ? ` and ${list.length - 1} other file${list.length > 2 ? 's' : ''}` : ''}`;
      for (const [address, list] of [...addresses].sort()) {
        if (address === siteHost) continue; // the loopback SITE_URL, named above
        problems.push(
          `the export holds the local address ${address} (the Auth emulator's, or another local service's) in ${files(list)}: build with SITE_URL the shop's public address and without AUTH_EMULATOR_URL`,
        );
      }
      if (variableIn.length) problems.push(`the export names FIREBASE_AUTH_EMULATOR_HOST in ${files(variableIn)}`);
      return [...problems, ...shopProblems(shop)];
    },
  };
}

/** Throws one message listing every problem, if there are any.
 * @param {string[]} problems
 * @param {string} what the refused act, after "refusing to" */
export function refuseIf(problems, what) {
  if (problems.length) throw new Error(`refusing to ${what}: ${problems.join('; ')}`);
}
