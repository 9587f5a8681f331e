// @ts-check
// Grants, revokes and lists the shop's staff: Firebase users whose ID token carries the
// custom claim `staff: true` (docs/back-office.md "Roles" and "Granting staff").
//
//   scripts/staff grant EMAIL    set staff: true on the user with that email
//   scripts/staff revoke EMAIL   remove it
//   scripts/staff list           the users who have it
//
// The user's other custom claims are kept; nothing else about the user changes (no session
// is revoked). Where it works (target below):
//   - FIREBASE_AUTH_EMULATOR_HOST set: that Auth emulator, project FIREBASE_PROJECT_ID
//     (default demo-tradeshop);
//   - else GOOGLE_APPLICATION_CREDENTIALS set: the real Firebase project FIREBASE_PROJECT_ID,
//     with that service account key (a demo- project is refused);
//   - else the local Auth emulator of scripts/run (127.0.0.1:$AUTH_EMULATOR_PORT, 9099 by
//     default), saying so.
// Exit codes: 0 done, 1 refused or failed (one sentence on stderr), 2 bad usage.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

export const DEFAULT_PROJECT = 'demo-tradeshop';

export const usage = `usage: scripts/staff grant EMAIL | revoke EMAIL | list

  grant EMAIL    give the user with that email the custom claim staff: true
  revoke EMAIL   take it away (their other custom claims are kept)
  list           the users who have it

The user must have registered first. They pick the change up with their next ID token:
on the next token refresh (at most an hour; the admin pages force one when they open) or
sign-in.

Where it works (environment variables):
  FIREBASE_AUTH_EMULATOR_HOST     set: that Auth emulator (e.g. 127.0.0.1:9099)
  GOOGLE_APPLICATION_CREDENTIALS  set (and no emulator): the real Firebase project, with
                                  this service account key file
  FIREBASE_PROJECT_ID             the project: ${DEFAULT_PROJECT} by default; with a key it
                                  must be set, and not to a demo- project
With neither of the first two set: scripts/run's local emulator at
127.0.0.1:$AUTH_EMULATOR_PORT (9099 by default), saying so.`;

/** A usage error: exit code 2 with the usage. */
export class UsageError extends Error {}

const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** Reads the arguments: { help } or { command, email }. Throws UsageError.
 * @param {string[]} argv
 * @returns {{ help: true, command?: undefined } | { help?: undefined, command: 'list' } | { help?: undefined, command: 'grant' | 'revoke', email: string }} */
export function parseArguments(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    throw new UsageError(err.message.split('. ')[0]);
  }
  if (parsed.values.help) return { help: true };
  const [command, ...rest] = parsed.positionals;
  if (!command) throw new UsageError('say what to do: grant, revoke or list');
  if (command === 'list') {
    if (rest.length) throw new UsageError(`list takes no argument (got ${rest.join(' ')})`);
    return { command };
  }
  if (command !== 'grant' && command !== 'revoke') throw new UsageError(`unknown command ${command}: grant, revoke or list`);
  if (rest.length !== 1) throw new UsageError(`${command} takes one email address`);
  const email = rest[0].trim();
  if (!EMAIL.test(email)) throw new UsageError(`${rest[0]} is not an email address`);
  return { command, email };
}

/** Where to work, from the environment: { kind: 'emulator', host, projectId, note? } or
 * { kind: 'cloud', projectId, keyFile, key }. Throws, in one sentence, what is wrong.
 * @returns {{ kind: 'emulator', host: string, projectId: string, note: string | undefined } | { kind: 'cloud', projectId: string, keyFile: string, key: any, note?: undefined }} */
export function target(env = process.env) {
  const projectId = env.FIREBASE_PROJECT_ID || DEFAULT_PROJECT;
  if (env.FIREBASE_AUTH_EMULATOR_HOST) {
    const note = env.GOOGLE_APPLICATION_CREDENTIALS
      ? 'FIREBASE_AUTH_EMULATOR_HOST is set, so GOOGLE_APPLICATION_CREDENTIALS is ignored: working on the emulator'
      : undefined;
    return { kind: 'emulator', host: env.FIREBASE_AUTH_EMULATOR_HOST, projectId, note };
  }
  const keyFile = env.GOOGLE_APPLICATION_CREDENTIALS;
  if (!keyFile) {
    const host = `127.0.0.1:${env.AUTH_EMULATOR_PORT || '9099'}`;
    return {
      kind: 'emulator',
      host,
      projectId,
      note: `neither FIREBASE_AUTH_EMULATOR_HOST nor GOOGLE_APPLICATION_CREDENTIALS is set: using the local Auth emulator at ${host} (scripts/run's)`,
    };
  }
  let key;
  try {
    key = JSON.parse(readFileSync(keyFile, 'utf8'));
  } catch (err) {
    throw new Error(`GOOGLE_APPLICATION_CREDENTIALS is ${keyFile}, which cannot be read as a service account key (${err.code ?? err.message})`);
  }
  if (key?.type !== 'service_account' || !key.client_email || !key.private_key) {
    throw new Error(
      `GOOGLE_APPLICATION_CREDENTIALS is ${keyFile}, which is not a service account key (a JSON key file from the Google Cloud console, "type": "service_account")`,
    );
  }
  if (!env.FIREBASE_PROJECT_ID) {
    throw new Error(
      `FIREBASE_PROJECT_ID is not set: set it to the Firebase project to change (the key at ${keyFile} is for ${key.project_id ?? 'an unnamed project'})`,
    );
  }
  if (projectId.startsWith('demo-')) {
    throw new Error(
      `FIREBASE_PROJECT_ID is ${projectId}, a demo project that exists only in the emulator: set it to the real project, or set FIREBASE_AUTH_EMULATOR_HOST to work on the emulator`,
    );
  }
  if (key.project_id && key.project_id !== projectId) {
    throw new Error(`the key at ${keyFile} is for project ${key.project_id}, not FIREBASE_PROJECT_ID ${projectId}: use that project's key`);
  }
  return { kind: 'cloud', projectId, keyFile, key };
}

/** @typedef {ReturnType<typeof target>} Target */
/** @typedef {import('firebase-admin/auth').Auth} Auth */

/** Says where, in words.
 * @param {Target} t */
export function describe(t) {
  return t.kind === 'emulator' ? `the Auth emulator at ${t.host} (project ${t.projectId})` : `Firebase project ${t.projectId}`;
}

/** Throws a sentence when nothing answers HTTP at the emulator's host within 3 s.
 * @param {{ host: string }} t */
async function checkEmulator(t) {
  try {
    await fetch(`http://${t.host}/`, { signal: AbortSignal.timeout(3000) });
  } catch (err) {
    const why = err.cause?.code ?? (err.name === 'TimeoutError' ? 'no answer in 3 s' : err.message);
    throw new Error(
      `the Auth emulator does not answer at ${t.host} (${why}): start the shop with scripts/run, ` +
        'or set FIREBASE_AUTH_EMULATOR_HOST to where the emulator runs',
    );
  }
}

const GRANTED =
  'They pick it up with their next ID token: on the next token refresh (within the hour; ' +
  'the admin pages force one when they open) or when they sign in again.';
const REVOKED =
  'They lose it with their next ID token (the next token refresh or sign-in); an ID token ' +
  'issued before now still carries staff: true, and the API accepts it, until it expires (at most an hour).';

/** The Firebase Auth client for the target (firebase-admin is loaded only here, so --help
 * and refusals are quick).
 * @param {Target} t
 * @returns {Promise<Auth>} */
async function authFor(t) {
  const { initializeApp, cert } = await import('firebase-admin/app');
  const { getAuth } = await import('firebase-admin/auth');
  if (t.kind === 'emulator') {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = t.host; // what firebase-admin reads
    return getAuth(initializeApp({ projectId: t.projectId }, 'staff'));
  }
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  return getAuth(initializeApp({ projectId: t.projectId, credential: cert(t.key) }, 'staff'));
}

/** The user with the email; throws a sentence when there is none.
 * @param {Auth} auth
 * @param {string} email */
async function userByEmail(auth, email) {
  try {
    return await auth.getUserByEmail(email);
  } catch (err) {
    if (err.code === 'auth/user-not-found') throw new Error(`No user with email ${email}: they must register first`);
    throw err;
  }
}

/** @param {Auth} auth @param {string} email @param {string} where the target, in words */
async function grant(auth, email, where) {
  const user = await userByEmail(auth, email);
  const claims = user.customClaims ?? {};
  if (claims.staff === true) {
    console.log(`${user.email} (uid ${user.uid}) is already staff on ${where}: nothing changed`);
    return;
  }
  await auth.setCustomUserClaims(user.uid, { ...claims, staff: true });
  console.log(`Granted staff to ${user.email} (uid ${user.uid}) on ${where}`);
  console.log(`  ${GRANTED}`);
}

/** @param {Auth} auth @param {string} email @param {string} where the target, in words */
async function revoke(auth, email, where) {
  const user = await userByEmail(auth, email);
  const { staff, ...others } = user.customClaims ?? {};
  if (staff === undefined) {
    console.log(`${user.email} (uid ${user.uid}) is not staff on ${where}: nothing changed`);
    return;
  }
  await auth.setCustomUserClaims(user.uid, Object.keys(others).length ? others : null);
  console.log(`Revoked staff from ${user.email} (uid ${user.uid}) on ${where}`);
  console.log(`  ${REVOKED}`);
}

/** @param {Auth} auth @param {string} where the target, in words */
async function list(auth, where) {
  /** @type {import('firebase-admin/auth').UserRecord[]} */
  const staff = [];
  /** @type {[import('firebase-admin/auth').UserRecord, unknown][]} */
  const odd = [];
  /** @type {string | undefined} */
  let pageToken;
  do {
    /** @type {import('firebase-admin/auth').ListUsersResult} */
    const page = await auth.listUsers(1000, pageToken);
    for (const u of page.users) {
      const v = u.customClaims?.staff;
      if (v === true) staff.push(u);
      else if (v !== undefined) odd.push([u, v]);
    }
    pageToken = page.pageToken;
  } while (pageToken);
  staff.sort((a, b) => (a.email ?? '').localeCompare(b.email ?? ''));
  console.log(staff.length ? `Staff on ${where}: ${staff.length}` : `No staff on ${where}`);
  for (const u of staff) console.log(`  ${u.email ?? '(no email)'}  uid ${u.uid}${u.disabled ? '  (disabled)' : ''}`);
  for (const [u, v] of odd) {
    console.log(
      `  not staff: ${u.email ?? '(no email)'} (uid ${u.uid}) has staff: ${JSON.stringify(v)}; only true counts ` +
        '(scripts/staff grant sets it, revoke removes it)',
    );
  }
}

/** Runs the command; answers the exit code.
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} [env] */
export async function main(argv, env = process.env) {
  let args;
  try {
    args = parseArguments(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`staff: ${err.message}\n${usage}`);
    return 2;
  }
  if (args.help) {
    console.log(usage);
    return 0;
  }
  try {
    const t = target(env);
    if (t.note) console.log(`staff: ${t.note}`);
    if (t.kind === 'emulator') await checkEmulator(t);
    const auth = await authFor(t);
    const where = describe(t);
    if (args.command === 'grant') await grant(auth, args.email, where);
    else if (args.command === 'revoke') await revoke(auth, args.email, where);
    else await list(auth, where);
    return 0;
  } catch (err) {
    console.error(`staff: ${err.message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
