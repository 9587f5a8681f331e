// @ts-check
// The README's run command: refuses busy ports before anything starts, installs npm
// packages (and Java, for DynamoDB Local, when it is missing), builds the Go commands,
// starts DynamoDB Local (tables kept in .local/dynamodb) and the Firebase Auth emulator
// (users kept in .local/auth) and maildev (the local SMTP server and web inbox, emails kept
// in .local/maildev) and stripe-mock (Stripe's API mock, which the edge's Stripe calls
// go to), loads the seed catalogue on first start only, builds the site,
// publishes it to .local/release (scripts/publish.mjs, dir target) and serves that, with
// the API, on one port through the local edge, which sends the shop's emails to maildev.
// Ctrl-C stops everything.
//
//   scripts/run            the wrapper checks Node and Go first (scripts/preflight.cjs)
//   scripts/run --help     the environment variables below, and nothing started
//
// Any other argument is refused with the usage (exit code 2); any error ends the run with
// one line (`run: …`) and exit code 1.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  binDir,
  buildGoCommands,
  ensureNpmPackages,
  ensurePortsFree,
  isStopping,
  localBuildId,
  localDir,
  run,
  say,
  startAuthEmulator,
  startService,
  stopAll,
  stopOnSignals,
  waitForPort,
  writeFirebaseConfig,
} from './lib.mjs';
import { ensureJava, moveDynaliteDataAside, startDynamoDBLocal } from './dynamodb-local.mjs';
import { buildSite, exportDir } from './build.mjs';
import { startMaildev } from './maildev.mjs';
import { startStripeMock, stripeEnv, unsetOtherStripeVariables } from './stripe-mock.mjs';
import { openTarget, publishExport } from './publish.mjs';

/** The environment variables the run command reads: [name, default, what]. */
export const variables = [
  ['PORT', '8080', 'the local edge: the shop and /api/*'],
  ['DYNAMODB_PORT', '8000', 'DynamoDB Local'],
  ['AUTH_EMULATOR_PORT', '9099', 'Firebase Auth emulator'],
  ['EMULATOR_HUB_PORT', '4400', "the emulator suite's hub"],
  ['EMULATOR_LOGGING_PORT', '4500', "the emulator suite's logging"],
  ['MAIL_SMTP_PORT', '1025', "maildev's SMTP server: the edge sends the shop's emails there"],
  ['MAIL_WEB_PORT', '1080', "maildev's web inbox (and its API)"],
  ['STRIPE_MOCK_PORT', '12111', "stripe-mock, Stripe's API mock: the edge's STRIPE_API_BASE"],
  ['STRIPE_SECRET_KEY', 'sk_test_local', 'the Stripe key the edge sends to stripe-mock (any test key)'],
  ['STRIPE_WEBHOOK_SECRET', 'whsec_local', 'the local payment page signs its events with it, the webhook checks them'],
  ['FIREBASE_PROJECT_ID', 'demo-tradeshop', 'Firebase project (a demo- project never reaches Google)'],
  ['TABLE_NAME', 'tradeshop', 'DynamoDB table'],
  ['SEED_PRODUCTS', '3000', 'size of the seed catalogue on first start (up to 200,000)'],
  ['SITE_URL', 'http://127.0.0.1:$PORT', "the site's public address (canonical URLs, sitemap)"],
  ['BUILD_ID', 'the git commit', "the build the edge's log lines carry: the short commit, -dirty with changes; local outside git"],
];

/** The variables that name a port, each checked free before anything starts; the script
 * tests set every one of them to a free port, so a running shop on the defaults does not
 * change what they see. */
export const portVariables = variables.map(([name]) => name).filter((name) => name.endsWith('PORT'));

const usage = `usage: scripts/run [--help]

Sets everything up and runs the shop locally (README "The two commands"); Ctrl-C stops it.
Needs Go and Node (checked first); installs npm packages, and Java where there is none.
Every port is checked before anything starts. Environment variables, and their defaults:
${variables.map(([name, dflt, what]) => `  ${name.padEnd(22)} ${dflt.padEnd(23)} ${what}`).join('\n')}`;

/** The variable's value, else its default. @param {string} k */
const env = (k) => process.env[k] || variables.find(([name]) => name === k)?.[1] || '';
const cfg = {
  port: Number(env('PORT')),
  dynamoPort: Number(env('DYNAMODB_PORT')),
  authPort: Number(env('AUTH_EMULATOR_PORT')),
  hubPort: Number(env('EMULATOR_HUB_PORT')),
  loggingPort: Number(env('EMULATOR_LOGGING_PORT')),
  mailSmtpPort: Number(env('MAIL_SMTP_PORT')),
  mailWebPort: Number(env('MAIL_WEB_PORT')),
  stripeMockPort: Number(env('STRIPE_MOCK_PORT')),
  projectId: env('FIREBASE_PROJECT_ID'),
  table: env('TABLE_NAME'),
  products: env('SEED_PRODUCTS'),
};

const serviceEnv = {
  DYNAMODB_ENDPOINT: `http://127.0.0.1:${cfg.dynamoPort}`,
  TABLE_NAME: cfg.table,
  AWS_REGION: 'eu-west-2',
  FIREBASE_PROJECT_ID: cfg.projectId,
  FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${cfg.authPort}`,
  STAGE: 'local',
};

/** Reads the arguments: answers false after printing the usage for --help; refuses any
 * other argument with the usage (exit code 2). */
function parseArguments(/** @type {string[]} */ argv) {
  let help;
  try {
    ({
      values: { help },
    } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    console.error(`run: ${err.message.split('. ')[0]}\n${usage}`);
    process.exit(2);
  }
  if (help) console.log(usage);
  return !help;
}

/** The lines that say where the running shop's metrics and error reports go
 * (docs/operations.md "Metrics, locally").
 * @param {{ port: number, buildId: string }} shop */
export function observabilityLines({ port, buildId }) {
  return [
    `the edge logs every request as JSON lines with the metrics in them (CloudWatch EMF; build ${buildId}) to .local/logs/edge.log: scripts/metrics summarises the last 15 minutes (requests, 4xx, 5xx, p50/p99 per endpoint, orders, backlogs)`,
    `the site's error reports go to POST /api/errors: the back office's Health page, http://127.0.0.1:${port}/admin/health/ (staff only: scripts/staff grant EMAIL), shows them`,
  ];
}

async function main() {
  if (!parseArguments(process.argv.slice(2))) return;
  stopOnSignals();
  await ensurePortsFree(portVariables.map((variable) => ({ variable, port: Number(env(variable)) })));
  const buildId = process.env.BUILD_ID || localBuildId();
  for (const line of observabilityLines({ port: cfg.port, buildId })) say('run', line);
  await ensureNpmPackages();
  await ensureJava();

  const dataDir = path.join(localDir, 'dynamodb');
  const movedTo = moveDynaliteDataAside(dataDir);
  if (movedTo) {
    say(
      'run',
      `.local/dynamodb held dynalite's tables, which DynamoDB Local cannot read: moved them to ` +
        `${path.relative(process.cwd(), movedTo)} and starting a fresh store (the seed catalogue loads again; ` +
        `baskets, profiles and orders of the old store are not carried over; delete the old folder when you no longer want it)`,
    );
  }

  // The Go build, the store (a JVM) and the Auth emulator start side by side: each of
  // the two services takes seconds to come up.
  say(
    'run',
    `starting DynamoDB Local on 127.0.0.1:${cfg.dynamoPort} (tables in .local/dynamodb), the Firebase Auth emulator on 127.0.0.1:${cfg.authPort} (project ${cfg.projectId}), maildev (SMTP on 127.0.0.1:${cfg.mailSmtpPort}) and stripe-mock (127.0.0.1:${cfg.stripeMockPort})`,
  );
  const authDir = path.join(localDir, 'auth');
  const [, store, , mail, stripeMock] = await Promise.all([
    buildGoCommands(),
    startDynamoDBLocal({ port: cfg.dynamoPort, dataDir, logFile: path.join(localDir, 'logs', 'dynamodb.log') }),
    startAuthEmulator({
      projectId: cfg.projectId,
      configFile: writeFirebaseConfig(path.join(localDir, 'firebase'), cfg),
      authPort: cfg.authPort,
      importDir: authDir,
      exportDir: authDir,
      logFile: path.join(localDir, 'logs', 'auth-emulator.log'),
    }),
    startMaildev({
      smtpPort: cfg.mailSmtpPort,
      webPort: cfg.mailWebPort,
      dir: path.join(localDir, 'maildev'),
      logFile: path.join(localDir, 'logs', 'maildev.log'),
    }),
    startStripeMock({ port: cfg.stripeMockPort, logFile: path.join(localDir, 'logs', 'stripe-mock.log') }),
  ]);
  say('run', `DynamoDB Local ${store.version} answers on 127.0.0.1:${cfg.dynamoPort} (up in ${store.seconds.toFixed(1)} s; log: .local/logs/dynamodb.log)`);
  store.child.exited.then((code) => {
    if (isStopping()) return;
    say('run', `DynamoDB Local stopped (${code}; see .local/logs/dynamodb.log); stopping the rest`);
    stopAll().then(() => process.exit(1));
  });
  say('run', `maildev answers: the shop's emails land in the inbox at ${mail.url}/ (log: .local/logs/maildev.log)`);
  mail.child.exited.then((code) => {
    if (isStopping()) return;
    say('run', `maildev stopped (${code}; see .local/logs/maildev.log); stopping the rest`);
    stopAll().then(() => process.exit(1));
  });
  say('run', `stripe-mock answers on ${stripeMock.url}: the shop's Stripe calls go there (log: .local/logs/stripe-mock.log)`);
  stripeMock.child.exited.then((code) => {
    if (isStopping()) return;
    say('run', `stripe-mock stopped (${code}; see .local/logs/stripe-mock.log); stopping the rest`);
    stopAll().then(() => process.exit(1));
  });

  const childEnv = { ...process.env, ...serviceEnv };
  say('run', 'loading the seed catalogue if the table is new');
  await run(path.join(binDir, 'seed'), ['-if-empty', '-products', cfg.products, '-media', path.join(localDir, 'media')], { env: childEnv });

  // The edge serves the published copy, never site/out: `next build` empties site/out,
  // while a release swaps files in one by one in an order open tabs survive. As a release
  // does, the build renders only the pages whose data changed since the copy's current
  // release when that is safe (docs/build-and-release.md "Partial builds").
  const releaseDir = path.join(localDir, 'release');
  const target = await openTarget(`dir:${releaseDir}`);
  const state = await target.state();
  await buildSite({
    env: { ...childEnv, SITE_URL: process.env.SITE_URL || `http://127.0.0.1:${cfg.port}`, AUTH_EMULATOR_URL: `http://127.0.0.1:${cfg.authPort}` },
    release: { current: state.current, unfinished: state.unfinished.length },
  });
  await publishExport({ exportDir, target });

  const edge = startService('edge', path.join(binDir, 'local'), [], {
    env: {
      ...serviceEnv,
      // Stripe: stripe-mock's address and the key and webhook secret (run's variables, or
      // their local defaults); no other STRIPE_* of the caller's environment.
      ...unsetOtherStripeVariables(process.env),
      ...stripeEnv(stripeMock.url, process.env),
      PORT: String(cfg.port),
      SITE_DIR: path.join(releaseDir, 'site'),
      MEDIA_DIR: path.join(localDir, 'media'),
      // The back office's Publish catalogue runs scripts/release into this folder, built as above.
      PUBLISH_DIR: releaseDir,
      SITE_URL: process.env.SITE_URL || `http://127.0.0.1:${cfg.port}`,
      AUTH_EMULATOR_URL: `http://127.0.0.1:${cfg.authPort}`,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(cfg.mailSmtpPort),
      BUILD_ID: buildId,
    },
    logFile: path.join(localDir, 'logs', 'edge.log'),
  });
  await waitForPort(cfg.port, { child: edge });
  say(
    'run',
    `the shop is running at http://127.0.0.1:${cfg.port}/ and its emails arrive at ${mail.url}/  (log and metrics: .local/logs/edge.log, scripts/metrics; error reports: /admin/health/; Ctrl-C stops everything)`,
  );
  const code = await edge.exited;
  if (isStopping()) return; // Ctrl-C: the signal handler stops the rest and exits
  say('run', `the edge stopped (${code}); stopping the rest`);
  await stopAll();
  process.exit(1);
}

// Run as a command only: the script tests import portVariables.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch(async (err) => {
    console.error(`run: ${err.message}`);
    await stopAll();
    process.exit(1);
  });
}
