// @ts-check
// scripts/staff against a real Firebase Auth emulator on free ports: grant puts staff: true
// on the next ID token the emulator mints (keeping the user's other custom claims), revoke
// takes it off, list shows who has it; an unknown email, a silent emulator and bad usage are
// refused with a sentence; a service account key with a demo- or missing project is refused
// before anything is sent (docs/back-office.md "Granting staff").
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { freePort, root, startAuthEmulator, stopAll, writeFirebaseConfig } from './lib.mjs';
import { parseArguments, target, UsageError } from './staff.mjs';

const project = 'demo-tradeshop';
const password = 'correct-horse-1';

/** The environment without any Firebase setting of the caller's, plus extra. */
function cleanEnv(extra = {}) {
  const env = { ...process.env };
  for (const k of ['FIREBASE_AUTH_EMULATOR_HOST', 'GOOGLE_APPLICATION_CREDENTIALS', 'FIREBASE_PROJECT_ID', 'AUTH_EMULATOR_PORT']) delete env[k];
  return { ...env, ...extra };
}

/** Runs scripts/staff (the wrapper) with args; answers { code, out, err }.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number | null, out: string, err: string }>} */
function staff(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'scripts', 'staff'), args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** The payload of a JWT, decoded (no check: the emulator's tokens are unsigned). */
const payload = (/** @type {string} */ jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));

test('scripts/staff against the Auth emulator', { timeout: 180000 }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-staff-test-'));
  const [authPort, hubPort, loggingPort] = await Promise.all([freePort(), freePort(), freePort()]);
  t.after(async () => {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  });
  await startAuthEmulator({
    projectId: project,
    configFile: writeFirebaseConfig(dir, { authPort, hubPort, loggingPort }),
    authPort,
    logFile: path.join(dir, 'auth-emulator.log'),
  });
  const host = `127.0.0.1:${authPort}`;
  const env = cleanEnv({ FIREBASE_AUTH_EMULATOR_HOST: host, FIREBASE_PROJECT_ID: project });
  const identity = (/** @type {string} */ method) => `http://${host}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=local`;
  /** @returns {Promise<any>} the answer's JSON, whose shape each call knows */
  const post = async (/** @type {string} */ url, /** @type {unknown} */ body, headers = {}) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const json = await res.json();
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(json)}`);
    return json;
  };
  /** The claims of a freshly minted ID token: a new password sign-in. */
  const claimsOf = async (/** @type {string} */ email) =>
    payload((await post(identity('signInWithPassword'), { email, password, returnSecureToken: true })).idToken);

  const email = `staff-${Date.now()}@shop.test`;
  const { localId: uid } = await post(identity('signUp'), { email, password, returnSecureToken: true });
  // Another custom claim the user already has, which grant and revoke must keep.
  await post(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/${project}/accounts:update`,
    { localId: uid, customAttributes: JSON.stringify({ tier: 'gold' }) },
    { authorization: 'Bearer owner' },
  );
  const before = await claimsOf(email);
  assert.equal(before.tier, 'gold');
  assert.equal(before.staff, undefined);

  await t.test('grant sets staff: true on the next token, keeping other claims, and says when it takes effect', async () => {
    const r = await staff(['grant', email], env);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, new RegExp(`^Granted staff to ${email} \\(uid ${uid}\\) on the Auth emulator at ${host} \\(project ${project}\\)\n`));
    assert.match(r.out, /next ID token: on the next token refresh .* or when they sign in again/);
    const c = await claimsOf(email);
    assert.equal(c.staff, true);
    assert.equal(c.tier, 'gold');
    assert.equal(c.sub, uid);
    const again = await staff(['grant', email], env);
    assert.equal(again.code, 0, again.out + again.err);
    assert.match(again.out, /is already staff .*: nothing changed/);
  });

  await t.test('list shows the staff, and only them', async () => {
    const other = `buyer-${Date.now()}@shop.test`;
    await post(identity('signUp'), { email: other, password, returnSecureToken: true });
    const r = await staff(['list'], env);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, new RegExp(`^Staff on the Auth emulator at ${host} \\(project ${project}\\): 1\n  ${email}  uid ${uid}\n$`));
  });

  await t.test('revoke removes staff from the next token and keeps the other claims', async () => {
    const r = await staff(['revoke', email], env);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, new RegExp(`^Revoked staff from ${email} \\(uid ${uid}\\)`));
    assert.match(r.out, /issued before now still carries staff: true, and the API accepts it, until it expires/);
    const c = await claimsOf(email);
    assert.equal(c.staff, undefined);
    assert.equal(c.tier, 'gold');
    const again = await staff(['revoke', email], env);
    assert.equal(again.code, 0);
    assert.match(again.out, /is not staff .*: nothing changed/);
    const none = await staff(['list'], env);
    assert.equal(none.out, `No staff on the Auth emulator at ${host} (project ${project})\n`);
  });

  await t.test('an unknown email is refused with a sentence, exit 1', async () => {
    for (const cmd of ['grant', 'revoke']) {
      const r = await staff([cmd, 'nobody-here@shop.test'], env);
      assert.equal(r.code, 1, r.out + r.err);
      assert.equal(r.err, 'staff: No user with email nobody-here@shop.test: they must register first\n');
    }
  });

  await t.test('with neither emulator nor key set it uses the local emulator (AUTH_EMULATOR_PORT) and says so', async () => {
    const r = await staff(['list'], cleanEnv({ AUTH_EMULATOR_PORT: String(authPort) }));
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(
      r.out,
      new RegExp(`^staff: neither FIREBASE_AUTH_EMULATOR_HOST nor GOOGLE_APPLICATION_CREDENTIALS is set: using the local Auth emulator at ${host}`),
    );
    assert.match(r.out, /No staff on the Auth emulator/);
  });
});

test('an emulator that does not answer is named, exit 1', async () => {
  const port = await freePort();
  const r = await staff(['grant', 'a@shop.test'], cleanEnv({ FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${port}` }));
  assert.equal(r.code, 1);
  assert.equal(
    r.err,
    `staff: the Auth emulator does not answer at 127.0.0.1:${port} (ECONNREFUSED): start the shop with scripts/run, or set FIREBASE_AUTH_EMULATOR_HOST to where the emulator runs\n`,
  );
});

test('bad usage exits 2 with the usage; --help exits 0', async () => {
  for (const args of [[], ['grant'], ['grant', 'a@b', 'c@d'], ['promote', 'a@b'], ['grant', 'not-an-email'], ['list', 'x'], ['--force']]) {
    const r = await staff(args, cleanEnv());
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}${r.err}`);
    assert.match(r.err, /^staff: .+\nusage: scripts\/staff grant EMAIL \| revoke EMAIL \| list\n/);
    assert.equal(r.out, '');
  }
  const help = await staff(['--help'], cleanEnv());
  assert.equal(help.code, 0);
  assert.match(help.out, /^usage: scripts\/staff grant EMAIL/);
  assert.equal(help.err, '');
});

test('arguments', () => {
  assert.deepEqual(parseArguments(['grant', ' a@shop.test ']), { command: 'grant', email: 'a@shop.test' });
  assert.deepEqual(parseArguments(['list']), { command: 'list' });
  assert.deepEqual(parseArguments(['-h']), { help: true });
  assert.throws(() => parseArguments(['revoke']), UsageError);
});

test('where it works: emulator first, then a service account key for a real project, else the local emulator', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-staff-key-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const keyFile = path.join(dir, 'key.json');
  writeFileSync(
    keyFile,
    JSON.stringify({ type: 'service_account', project_id: 'tradeshop-prod', client_email: 'x@tradeshop-prod.iam.gserviceaccount.com', private_key: 'k' }),
  );
  const notKey = path.join(dir, 'other.json');
  writeFileSync(notKey, JSON.stringify({ type: 'authorized_user' }));

  assert.deepEqual(target({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1' }), { kind: 'emulator', host: '127.0.0.1:1', projectId: project, note: undefined });
  assert.match(
    target({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:1', GOOGLE_APPLICATION_CREDENTIALS: keyFile }).note ?? '',
    /GOOGLE_APPLICATION_CREDENTIALS is ignored/,
  );
  const local = target({});
  assert.ok(local.kind === 'emulator');
  assert.equal(local.host, '127.0.0.1:9099');
  assert.match(local.note ?? '', /^neither .* is set: using the local Auth emulator at 127\.0\.0\.1:9099/);

  const cloud = target({ GOOGLE_APPLICATION_CREDENTIALS: keyFile, FIREBASE_PROJECT_ID: 'tradeshop-prod' });
  assert.equal(cloud.kind, 'cloud');
  assert.equal(cloud.projectId, 'tradeshop-prod');
  assert.throws(() => target({ GOOGLE_APPLICATION_CREDENTIALS: keyFile }), /^Error: FIREBASE_PROJECT_ID is not set: .* is for tradeshop-prod\)$/);
  assert.throws(
    () => target({ GOOGLE_APPLICATION_CREDENTIALS: keyFile, FIREBASE_PROJECT_ID: 'demo-tradeshop' }),
    /FIREBASE_PROJECT_ID is demo-tradeshop, a demo project that exists only in the emulator/,
  );
  assert.throws(
    () => target({ GOOGLE_APPLICATION_CREDENTIALS: keyFile, FIREBASE_PROJECT_ID: 'tradeshop-staging' }),
    /is for project tradeshop-prod, not FIREBASE_PROJECT_ID tradeshop-staging/,
  );
  assert.throws(() => target({ GOOGLE_APPLICATION_CREDENTIALS: notKey, FIREBASE_PROJECT_ID: 'tradeshop-prod' }), /is not a service account key/);
  assert.throws(
    () => target({ GOOGLE_APPLICATION_CREDENTIALS: path.join(dir, 'missing.json'), FIREBASE_PROJECT_ID: 'tradeshop-prod' }),
    /cannot be read as a service account key \(ENOENT\)/,
  );
});

test('a demo project with a key is refused by the command before anything is sent, exit 1', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-staff-key-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const keyFile = path.join(dir, 'key.json');
  writeFileSync(keyFile, JSON.stringify({ type: 'service_account', project_id: 'demo-tradeshop', client_email: 'x@y', private_key: 'k' }));
  const r = await staff(['grant', 'a@shop.test'], cleanEnv({ GOOGLE_APPLICATION_CREDENTIALS: keyFile, FIREBASE_PROJECT_ID: 'demo-tradeshop' }));
  assert.equal(r.code, 1);
  assert.match(r.err, /^staff: FIREBASE_PROJECT_ID is demo-tradeshop, a demo project/);
});
