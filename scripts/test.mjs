// @ts-check
// The README's test command: installs what it needs (npm packages, Debian's chromium, and
// Debian's Java for DynamoDB Local where there is none), starts its own DynamoDB Local (in
// memory, one JVM shared by every Go package), Firebase Auth emulator, maildev (the local
// SMTP server and web inbox the Go mail tests and the end-to-end edge send to) and stripe-mock
// (Stripe's API mock, which the Go payment tests, the end-to-end edge and the fault suite's
// edge send their Stripe calls to) on free ports, runs
// go vet, the Go unit and integration tests, then the static checks (tsc, ESLint, staticcheck,
// Prettier) beside the Node suites, cross-compiles every Lambda, runs the site and CDK tests and the
// deploy dry-run (`cdk synth`) for both stages, builds the site from a freshly seeded
// table, publishes it to a release folder (dir target) and serves that through the
// local edge, dry-runs the release of the export, runs the end-to-end tests in headless
// Chromium, then the fault suite (scripts/faults.mjs: store paused, kill -9 of the edge and
// the store while buyers order), and stops everything it started.
//
//   scripts/test                 every suite (the wrapper checks Node and Go first)
//   scripts/test SUITE ...       only the suites named (SUITES below), with only what they
//                                need set up; release, e2e and faults bring the build along
//   scripts/test --help          the suites, and nothing started
//
// It ends with a summary whose last line is `suites: N passed, N failed` (CI reads it) and
// exit code 1 when a suite failed; an unknown suite or option is refused with the usage
// (exit code 2).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  aptInstall,
  binDir,
  buildGoCommands,
  capture,
  ensureNpmPackages,
  freePort,
  localBuildId,
  root,
  run,
  say,
  startAuthEmulator,
  startService,
  stopAll,
  stopOnSignals,
  waitForPort,
  writeFirebaseConfig,
} from './lib.mjs';
import { ensureJava, startDynamoDBLocal } from './dynamodb-local.mjs';
import { buildSite, exportDir } from './build.mjs';
import { startMaildev } from './maildev.mjs';
import { startStripeMock, stripeEnv, unsetOtherStripeVariables } from './stripe-mock.mjs';
import { PHASE, openTarget, publishExport } from './publish.mjs';
import { buildLambdas } from './build-lambdas.mjs';
import { checkLog } from './log-secrets.mjs';

/** The suites, in the order they run: [name, what it checks]. */
export const SUITES = [
  ['vet', 'go vet'],
  ['go', 'Go unit and integration tests against DynamoDB Local, the Auth emulator, maildev and stripe-mock, with -race'],
  [
    'static',
    'tsc --noEmit (infra, site, site/e2e, scripts), ESLint with the React hooks rules (site), staticcheck (Go), no tracked file over 1 MB, Prettier (site, infra, scripts)',
  ],
  ['lambdas', 'every Lambda cross-compiled for linux/arm64 with -tags lambda.norpc'],
  ['site', "the site's unit tests"],
  ['scripts', "the scripts' own tests (node --test scripts/*.test.mjs)"],
  ['infra', "the CDK Template.fromStack tests and the CloudFront Function's tests"],
  ['deploy', "the first deploy's offline dry-run (checks, cdk synth) of both stages"],
  ['build', 'seed a table, build the site from it, publish it to a release folder'],
  ['release', 'release dry-run of the build'],
  [
    'e2e',
    'end-to-end tests in headless Chromium against the local edge (E2E_FILTER="a b" runs the files matching any name), then its log checked for the test passwords, tokens and email text',
  ],
  [
    'faults',
    "fault suite: store paused, kill -9 of the edge and the store while buyers order, mail server stopped, a card payment's event redelivered after kill -9",
  ],
];
/** The suites that test the build, and so bring it along. */
const NEEDS_BUILD = ['release', 'e2e', 'faults'];

export const usage = `usage: scripts/test [SUITE ...]

Sets up what the suites need and runs them in this order (every one without a SUITE):
${SUITES.map(([name, what]) => `  ${name.padEnd(8)} ${what}`).join('\n')}
Naming ${NEEDS_BUILD.join(', ')} (each tests the build) runs build first. The summary ends with \`suites: N passed, N failed\`.`;

/** The suites to run for the command's arguments: every suite for none, else the ones
 * named plus build when a named one tests it. Throws on an unknown name.
 * @param {string[]} names
 * @returns {Set<string>} */
export function selectSuites(names) {
  const known = SUITES.map(([name]) => name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`unknown suite${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the suites are ${known.join(', ')}`);
  if (!names.length) return new Set(known);
  const chosen = new Set(names);
  if (NEEDS_BUILD.some((n) => chosen.has(n))) chosen.add('build');
  return chosen;
}

/** @type {{ name: string, ok: boolean, s: number, err?: string }[]} */
const results = [];
let scratchDir = tmpdir();

/** Runs one suite (or one part of it: deploy has one per stage), titled `suite: title`; a
 * failure is recorded and the run goes on.
 * @param {string} suite
 * @param {string} title
 * @param {() => Promise<unknown>} fn */
async function step(suite, title, fn) {
  const name = `${suite}: ${title}`;
  const t0 = performance.now();
  say('test', `${name} ...`);
  try {
    await fn();
    results.push({ name, ok: true, s: (performance.now() - t0) / 1000 });
    say('test', `${name}: passed`);
    return true;
  } catch (err) {
    results.push({ name, ok: false, s: (performance.now() - t0) / 1000, err: err.message });
    say('test', `${name}: FAILED: ${err.message}`);
    return false;
  }
}

/** The names of the failed tests (and the first line of each error) in a vitest JSON
 * report, one per line, so the summary at the end says what failed, not only which suite:
 * a CI log is often read from its tail.
 * @param {string} reportFile
 * @returns {string[]} */
function failedVitestTests(reportFile) {
  let report;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8'));
  } catch {
    return [];
  }
  const firstLine = (/** @type {unknown} */ m) =>
    String(m ?? '')
      .split('\n')
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 300) ?? '';
  const out = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name);
    /** @type {{ status: string, fullName: string, failureMessages?: string[] }[]} */
    const failed = (file.assertionResults ?? []).filter((/** @type {{ status: string }} */ a) => a.status === 'failed');
    for (const a of failed) out.push(`${name} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (!failed.length && file.status === 'failed') out.push(`${name}: ${firstLine(file.message)}`);
  }
  return out;
}

/** Runs `vitest run` with its usual report plus a JSON one; a failure's error lists the
 * failed tests.
 * @param {string} cwd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [opts] */
async function vitest(cwd, args, opts = {}) {
  const report = path.join(scratchDir, `vitest-${path.basename(cwd)}-${results.length}.json`);
  try {
    await run('npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd, ...opts });
  } catch (err) {
    throw withDetails(err, failedVitestTests(report));
  }
}

/** Runs `go test`, passing its output through, and names the failed tests on failure.
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} opts
 * @returns {Promise<void>} */
function goTest(args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn('go', ['test', ...args], { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {string[]} */
    const failed = [];
    let rest = '';
    /** @param {import('node:stream').Readable} stream @param {NodeJS.WriteStream} sink */
    const watch = (stream, sink) =>
      stream.on('data', (/** @type {Buffer} */ d) => {
        sink.write(d);
        const lines = (rest + d).split('\n');
        rest = lines.pop() ?? '';
        for (const l of lines) if (/^\s*--- FAIL: |^FAIL\s/.test(l)) failed.push(l.trim());
      });
    watch(child.stdout, process.stdout);
    watch(child.stderr, process.stderr);
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(withDetails(new Error(`go test exited with ${code ?? signal}`), failed))));
  });
}

/** err, its message followed by lines, one per line, indented.
 * @param {Error} err
 * @param {string[]} lines */
function withDetails(err, lines) {
  if (lines.length) err.message += lines.map((l) => `\n      ${l}`).join('');
  return err;
}

async function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  await aptInstall(['chromium'], 'for the browser tests');
}

/** The TypeScript a workspace (site, infra, or . for the root's scripts) compiles with,
 * wherever npm put it: the root holds an older one for ESLint's parser
 * (site/eslint.config.mjs), which also checks the scripts.
 * @param {string} workspace */
function tscOf(workspace) {
  const pkg = createRequire(path.join(root, workspace, 'package.json')).resolve('typescript/package.json');
  return path.join(path.dirname(pkg), 'bin', 'tsc');
}

/** Runs a checker, passing its output through; on failure the error names it and holds
 * the first lines it printed, for the summary.
 * @param {string} name
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [opts]
 * @returns {Promise<void>} */
function runChecker(name, cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    /** @param {import('node:stream').Readable} stream @param {NodeJS.WriteStream} sink */
    const tee = (stream, sink) =>
      stream.on('data', (/** @type {Buffer} */ d) => {
        sink.write(d);
        if (out.length < 20000) out += d;
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            withDetails(
              new Error(`${name} exited with ${code ?? signal}`),
              out
                .split('\n')
                .filter((l) => l.trim())
                .slice(0, 6),
            ),
          ),
    );
  });
}

/** The static checks, each run even when one before it failed; they need no service (in
 * a whole run they follow the Go tests, beside the Node suites). */
async function staticChecks() {
  /** @type {[string, string, string[], import('node:child_process').SpawnOptions?][]} */
  const checks = [
    ['tsc infra', tscOf('infra'), ['--noEmit', '-p', 'infra']],
    ['tsc site', tscOf('site'), ['--noEmit', '-p', 'site']],
    ['tsc site/e2e', tscOf('site'), ['--noEmit', '-p', 'site/e2e']],
    // The scripts' JavaScript, checked from their JSDoc types (checkJs) by the root's
    // TypeScript; the release, deploy, run, test and staff commands and what they import
    // also with no implicit any (scripts/tsconfig.strict.json).
    ['tsc scripts', tscOf('.'), ['--noEmit', '-p', 'scripts']],
    ['tsc scripts (strict)', tscOf('.'), ['--noEmit', '-p', 'scripts/tsconfig.strict.json']],
    [
      'eslint site',
      path.join(root, 'node_modules', '.bin', 'eslint'),
      ['--max-warnings=0', '--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '.'],
      { cwd: path.join(root, 'site') },
    ],
    ['staticcheck', 'go', ['tool', 'staticcheck', './...'], { cwd: path.join(root, 'functions') }],
    ['tracked sizes', process.execPath, [path.join(root, 'scripts', 'tracked-size.mjs')]],
    // The formatting of site/, infra/ and scripts/ (.prettierrc.json; .prettierignore leaves
    // out build outputs, generated files and Markdown). Fix with the command in the README.
    [
      'prettier',
      path.join(root, 'node_modules', '.bin', 'prettier'),
      ['--check', '--cache', '--cache-strategy', 'content', '--log-level', 'warn', 'site', 'infra', 'scripts'],
    ],
    // The site's API types are generated from the Go answer types: fails, saying the
    // command to run, when site/lib/api-types.ts is not what they make now.
    ['api types current', 'go', ['run', './cmd/apitypes', '-check', '../site/lib/api-types.ts'], { cwd: path.join(root, 'functions') }],
    // endpoints.json, which the CDK app deploys, is generated from routes.go: fails, saying
    // the command to run, when the committed file is not what routes.go declares now.
    ['endpoints.json current', 'go', ['run', './cmd/deployment', '-check', 'internal/api/endpoints.json'], { cwd: path.join(root, 'functions') }],
  ];
  const failed = [];
  for (const [name, cmd, args, opts] of checks) {
    const t0 = performance.now();
    try {
      await runChecker(name, cmd, args, opts);
      say('test', `  ${name}: clean (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failed.push(err.message);
    }
  }
  if (failed.length) throw new Error(failed.join('\n    '));
}

/** Reads the arguments: answers the suites to run, or null after printing the usage for
 * --help; refuses an unknown option or suite with the usage (exit code 2).
 * @param {string[]} argv */
function parseArguments(argv) {
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
    if (values.help) {
      console.log(usage);
      return null;
    }
    return selectSuites(positionals);
  } catch (err) {
    console.error(`test: ${err.message.split('. ')[0]}\n${usage}`);
    process.exit(2);
  }
}

/** @param {string[]} argv */
async function main(argv) {
  const suites = parseArguments(argv);
  if (!suites) return;
  const has = (/** @type {string[]} */ ...names) => names.some((n) => suites.has(n));
  stopOnSignals();
  const started = performance.now();
  const needsStore = has('go', 'build');
  const needsAuth = has('go', 'e2e', 'faults');
  const needsMail = has('go', 'e2e');
  const needsStripe = has('go', 'e2e', 'faults');
  if (has('e2e', 'faults')) await ensureChromium();
  await ensureNpmPackages();
  if (needsStore || has('scripts', 'faults')) await ensureJava();

  const [dynamoPort, authPort, hubPort, loggingPort, edgePort, mailSmtpPort, mailWebPort, stripeMockPort] = await Promise.all(
    Array.from({ length: 8 }, freePort),
  );
  const scratch = mkdtempSync(path.join(tmpdir(), 'tradeshop-test-'));
  scratchDir = scratch;
  const projectId = 'demo-tradeshop';
  const stackEnv = {
    ...process.env,
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoPort}`,
    AWS_REGION: 'eu-west-2',
    TABLE_NAME: 'tradeshop',
    FIREBASE_PROJECT_ID: projectId,
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${authPort}`,
    STAGE: 'local',
    API_RATE_LIMIT: '0', // every e2e browser is 127.0.0.1: no per-address limit (its Go test covers it)
    // POST /api/errors: every e2e browser is 127.0.0.1 and shares one allowance, which holds
    // the whole suite's reports; e2e/health.test.ts floods it from 127.0.0.2 against this limit.
    ERROR_REPORT_LIMIT: '200',
    SITE_URL: `http://127.0.0.1:${edgePort}`,
    AUTH_EMULATOR_URL: `http://127.0.0.1:${authPort}`,
    // maildev: the edge and the Go mail tests send here; MAILDEV_URL is its web inbox and API.
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(mailSmtpPort),
    MAILDEV_URL: `http://127.0.0.1:${mailWebPort}`,
    // stripe-mock: the Go payment tests and the edge send their Stripe calls here, with the
    // local key; the local payment page and the tests sign events with the local secret.
    // No other STRIPE_* of the caller's environment (an ARN, a webhook pause) comes along.
    ...unsetOtherStripeVariables(process.env),
    ...stripeEnv(`http://127.0.0.1:${stripeMockPort}`),
  };

  // The Go commands (seed, snapshot, the local edge) compile while the services start and
  // the lanes run: only the build, at the end of the Node lane, waits for them (a failure
  // is the build's). The services take seconds to come up, side by side.
  const goCommands = has('build') ? buildGoCommands() : Promise.resolve();
  goCommands.catch(() => undefined); // reported when the build awaits it, not as unhandled
  if (needsStore) say('test', `starting DynamoDB Local (:${dynamoPort}, in memory)`);
  if (needsAuth) say('test', `starting the Auth emulator (:${authPort})`);
  if (needsMail) say('test', `starting maildev (SMTP :${mailSmtpPort}, inbox http://127.0.0.1:${mailWebPort}/)`);
  if (needsStripe) say('test', `starting stripe-mock (http://127.0.0.1:${stripeMockPort}/)`);
  const [store] = await Promise.all([
    needsStore && startDynamoDBLocal({ port: dynamoPort, logFile: path.join(scratch, 'dynamodb.log') }),
    needsAuth &&
      startAuthEmulator({
        projectId,
        configFile: writeFirebaseConfig(scratch, { authPort, hubPort, loggingPort }),
        authPort,
        logFile: path.join(scratch, 'auth-emulator.log'),
      }),
    needsMail && startMaildev({ smtpPort: mailSmtpPort, webPort: mailWebPort, dir: path.join(scratch, 'maildev'), logFile: path.join(scratch, 'maildev.log') }),
    needsStripe && startStripeMock({ port: stripeMockPort, logFile: path.join(scratch, 'stripe-mock.log') }),
  ]);
  if (store) say('test', `DynamoDB Local ${store.version} answers on :${dynamoPort} (up in ${store.seconds.toFixed(1)} s)`);

  const fnDir = path.join(root, 'functions');
  const lambdaDir = path.join(scratch, 'lambda');
  const media = path.join(scratch, 'media');
  const releaseDir = path.join(scratch, 'release');
  // Two lanes side by side (the Go tests wait on the store much of the time, the Node
  // suites mostly on one core): the Go vet and tests, then the static checks, in one; the
  // Lambdas, the site's, the scripts' and the infra's unit tests, the deploy dry-runs and
  // the site build in the other. The static checks (90 s, mostly on one core) ran first on
  // their own, every suite waiting for them; the Go lane ended 180 s before the Node lane,
  // so they now run in that time. Each suite still runs on its own and says its own result;
  // the browser and fault suites, which time what they see, run after both, on a quieter
  // machine.
  const goLane = async () => {
    if (has('vet')) await step('vet', 'go vet', () => run('go', ['vet', './...'], { cwd: fnDir }));
    if (has('go')) {
      await step('go', 'go test (unit + integration against DynamoDB Local, the Auth emulator, maildev and stripe-mock)', () =>
        // STORE_TIMEOUT_MS: the Go tests run their packages side by side under -race, each
        // test making its own table in one DynamoDB Local, with 50-writer races among them: on
        // a loaded 2-core machine a single call can take over the 3 s a buyer's request allows,
        // which would test the machine, not the shop. The deadline itself has its own tests
        // (store's deadline_test.go, the fault suite's paused store).
        goTest(['-count=1', '-race', './...'], { cwd: fnDir, env: { ...stackEnv, STORE_TIMEOUT_MS: '10000' } }),
      );
    }
    if (has('static')) await step('static', 'tsc, ESLint, staticcheck, Prettier', staticChecks);
  };
  const nodeLane = async () => {
    if (has('lambdas')) {
      await step('lambdas', 'Lambdas cross-compile for linux/arm64 with -tags lambda.norpc', async () => {
        for (const b of await buildLambdas(lambdaDir)) say('test', `  ${b.name}: ${(b.bytes / 1e6).toFixed(1)} MB`);
      });
    }
    if (has('site')) await step('site', 'site unit tests', () => vitest(path.join(root, 'site'), []));
    // The files by name, not `node --test scripts/`: Node would take this file
    // (scripts/test.mjs) for a test file too and run the whole suite inside itself.
    if (has('scripts')) {
      await step('scripts', 'script tests (node --test scripts/*.test.mjs)', () =>
        run('node', [
          '--test',
          ...readdirSync(path.join(root, 'scripts'))
            .filter((f) => f.endsWith('.test.mjs'))
            .map((f) => path.join('scripts', f)),
        ]),
      );
    }
    if (has('infra')) await step('infra', 'infra tests (Template.fromStack)', () => vitest(path.join(root, 'infra'), []));
    // The first deploy's dry-run: its offline checks, `cdk synth` of both stacks with the
    // root's pinned CLI, and the plan (docs/infrastructure.md "First deploy"). It builds the
    // Lambdas itself when the lambdas suite did not.
    for (const stage of has('deploy') ? ['staging', 'production'] : []) {
      await step('deploy', `deploy dry-run: checks and cdk synth offline (${stage})`, () =>
        run('node', ['scripts/deploy.mjs', '--stage', stage, '--dry-run', '--lambda-dir', lambdaDir, '--out', path.join(scratch, `cdk-${stage}`)]),
      );
    }

    return (
      has('build') &&
      (await step('build', 'seed and build the site from the local table, publish it to a release folder', async () => {
        await goCommands;
        await run(path.join(binDir, 'seed'), ['-media', media], { env: stackEnv });
        await buildSite({ env: stackEnv });
        await publishExport({ exportDir, target: await openTarget(`dir:${releaseDir}`) });
      }))
    );
  };
  const [, built] = await Promise.all([goLane(), nodeLane()]);
  if (built && has('release')) {
    await step('release', 'release dry-run of the real export', async () => {
      const plan = await capture('node', ['scripts/release.mjs', '--dry-run', '--export', 'site/out']);
      console.log(plan); // the upload order and cache headers, for the reader of the test log
      const phases = [PHASE.hashed, PHASE.pages, PHASE.meta, PHASE.edge, PHASE.invalidate, PHASE.latest];
      const at = phases.map((p) => plan.search(new RegExp(`^\\d+\\. ${p}:`, 'm')));
      if (at.some((i, k) => i < 0 || (k > 0 && i < at[k - 1]))) throw new Error(`the dry-run's plan lacks the phases in order (${phases.join(', ')})`);
    });
  }
  if (built && has('e2e')) {
    const edgeLog = path.join(scratch, 'edge.log');
    // The tests record each password and ID token they use here (site/e2e/secrets.ts).
    const secretsFile = path.join(scratch, 'e2e-secrets.jsonl');
    const edge = startService('edge', path.join(binDir, 'local'), [], {
      // PUBLISH_DIR: the back office's Publish catalogue releases into the folder served.
      env: {
        ...stackEnv,
        PORT: String(edgePort),
        SITE_DIR: path.join(releaseDir, 'site'),
        MEDIA_DIR: media,
        PUBLISH_DIR: releaseDir,
        BUILD_ID: process.env.BUILD_ID || localBuildId(),
        // Issue 37: a price group applied in the back office prices the buyer's next request
        // (e2e/pricing.test.ts), not a minute later: no per-process cache of the groups.
        PRICE_GROUP_CACHE_SECONDS: '0',
      },
      logFile: edgeLog,
    });
    await waitForPort(edgePort, { child: edge });
    await step('e2e', 'end-to-end tests in headless Chromium', () =>
      // E2E_FILTER (file name filters split by spaces, e.g. 'quick-order lists') runs only the matching files.
      vitest(path.join(root, 'site'), ['--config', 'vitest.e2e.config.mts', ...(process.env.E2E_FILTER ?? '').split(/\s+/).filter(Boolean)], {
        env: {
          ...stackEnv,
          SHOP_URL: `http://127.0.0.1:${edgePort}`,
          AUTH_EMULATOR_HOST: `127.0.0.1:${authPort}`,
          RELEASE_DIR: releaseDir,
          E2E_SECRETS_FILE: secretsFile,
        },
      }),
    );
    // Issue 34: no log line carries a token, a password or an email's text. The edge's log
    // of the whole e2e run is grepped for every secret the tests recorded, any JWT and the
    // emails' sentences (scripts/log-secrets.mjs); a finding fails the e2e suite.
    await step('e2e', "the edge's log holds no test password, ID token or email text", async () => {
      const { lines, secrets } = checkLog({ logFile: edgeLog, secretsFile });
      say('test', `  ${lines} log lines checked against ${secrets} recorded secrets, any JWT and the emails' sentences`);
    });
  }
  // Its own store (on disk) and edge, the same release folder, this run's Auth emulator;
  // a plain script, not a *.test.mjs, so the script tests above never run it.
  if (built && has('faults')) {
    await step(
      'faults',
      'fault suite: store paused (SIGSTOP), kill -9 of the edge and the store while buyers order, mail server stopped while orders are placed, catalogue import killed part-way, payments allocated and orders cancelled under kill -9, a card payment event redelivered after a kill -9 between recording and applying it (scripts/faults.mjs)',
      () =>
        run('node', ['scripts/faults.mjs'], {
          env: {
            ...process.env,
            FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${authPort}`,
            FIREBASE_PROJECT_ID: projectId,
            FAULTS_SITE_DIR: path.join(releaseDir, 'site'),
            // This run's stripe-mock: the fault suite's edge sends its Stripe calls there.
            FAULTS_STRIPE_API_BASE: stackEnv.STRIPE_API_BASE,
          },
        }),
    );
  }

  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
  const failed = results.filter((r) => !r.ok);
  console.log('\nSummary');
  for (const r of results) console.log(`  ${r.ok ? 'pass' : 'FAIL'}  ${r.name} (${r.s.toFixed(1)}s)${r.ok ? '' : `: ${r.err}`}`);
  console.log(`  total ${((performance.now() - started) / 1000).toFixed(0)}s`);
  console.log(`suites: ${results.length - failed.length} passed, ${failed.length} failed`);
  process.exit(failed.length ? 1 : 0);
}

// Run as a command only: the script tests import SUITES and selectSuites.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch(async (err) => {
    console.error(`test: ${err.message}`);
    await stopAll();
    process.exit(1);
  });
}
