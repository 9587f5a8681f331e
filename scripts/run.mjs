// The README's run command: refuses busy ports before anything starts, installs npm
// packages (and Java, for DynamoDB Local, when it is missing), builds the Go commands,
// starts DynamoDB Local (tables kept in .local/dynamodb) and the Firebase Auth emulator
// (users kept in .local/auth), loads the seed catalogue on first start only, builds the
// site, publishes it to .local/release (scripts/publish.mjs, dir target) and serves that,
// with the API, on one port through the local edge. Ctrl-C stops everything.
import path from 'node:path';
import {
  binDir, buildGoCommands, ensureNpmPackages, ensurePortsFree, isStopping, localDir, run, say, startAuthEmulator,
  startService, stopAll, stopOnSignals, waitForPort, writeFirebaseConfig,
} from './lib.mjs';
import { ensureJava, moveDynaliteDataAside, startDynamoDBLocal } from './dynamodb-local.mjs';
import { buildSite, exportDir } from './build.mjs';
import { openTarget, publishExport } from './publish.mjs';

const env = (k, d) => process.env[k] || d;
const cfg = {
  port: Number(env('PORT', '8080')),
  dynamoPort: Number(env('DYNAMODB_PORT', '8000')),
  authPort: Number(env('AUTH_EMULATOR_PORT', '9099')),
  hubPort: Number(env('EMULATOR_HUB_PORT', '4400')),
  loggingPort: Number(env('EMULATOR_LOGGING_PORT', '4500')),
  projectId: env('FIREBASE_PROJECT_ID', 'demo-tradeshop'),
  table: env('TABLE_NAME', 'tradeshop'),
  products: env('SEED_PRODUCTS', '3000'),
};

const serviceEnv = {
  DYNAMODB_ENDPOINT: `http://127.0.0.1:${cfg.dynamoPort}`,
  TABLE_NAME: cfg.table,
  AWS_REGION: 'eu-west-2',
  FIREBASE_PROJECT_ID: cfg.projectId,
  FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${cfg.authPort}`,
  STAGE: 'local',
};

async function main() {
  stopOnSignals();
  await ensurePortsFree([
    { variable: 'PORT', port: cfg.port },
    { variable: 'DYNAMODB_PORT', port: cfg.dynamoPort },
    { variable: 'AUTH_EMULATOR_PORT', port: cfg.authPort },
    { variable: 'EMULATOR_HUB_PORT', port: cfg.hubPort },
    { variable: 'EMULATOR_LOGGING_PORT', port: cfg.loggingPort },
  ]);
  await ensureNpmPackages();
  await ensureJava();

  const dataDir = path.join(localDir, 'dynamodb');
  const movedTo = moveDynaliteDataAside(dataDir);
  if (movedTo) {
    say('run', `.local/dynamodb held dynalite's tables, which DynamoDB Local cannot read: moved them to ` +
      `${path.relative(process.cwd(), movedTo)} and starting a fresh store (the seed catalogue loads again; ` +
      `baskets, profiles and orders of the old store are not carried over; delete the old folder when you no longer want it)`);
  }

  // The Go build, the store (a JVM) and the Auth emulator start side by side: each of
  // the two services takes seconds to come up.
  say('run', `starting DynamoDB Local on 127.0.0.1:${cfg.dynamoPort} (tables in .local/dynamodb) and the Firebase Auth emulator on 127.0.0.1:${cfg.authPort} (project ${cfg.projectId})`);
  const authDir = path.join(localDir, 'auth');
  const [, store] = await Promise.all([
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
  ]);
  say('run', `DynamoDB Local ${store.version} answers on 127.0.0.1:${cfg.dynamoPort} (up in ${store.seconds.toFixed(1)} s; log: .local/logs/dynamodb.log)`);
  store.child.exited.then((code) => {
    if (isStopping()) return;
    say('run', `DynamoDB Local stopped (${code}; see .local/logs/dynamodb.log); stopping the rest`);
    stopAll().then(() => process.exit(1));
  });

  const childEnv = { ...process.env, ...serviceEnv };
  say('run', 'loading the seed catalogue if the table is new');
  await run(path.join(binDir, 'seed'), ['-if-empty', '-products', cfg.products, '-media', path.join(localDir, 'media')], { env: childEnv });

  await buildSite({
    env: { ...childEnv, SITE_URL: process.env.SITE_URL || `http://127.0.0.1:${cfg.port}`, AUTH_EMULATOR_URL: `http://127.0.0.1:${cfg.authPort}` },
  });

  // The edge serves the published copy, never site/out: `next build` empties site/out,
  // while a release swaps files in one by one in an order open tabs survive.
  const releaseDir = path.join(localDir, 'release');
  await publishExport({ exportDir, target: await openTarget(`dir:${releaseDir}`) });

  const edge = startService('edge', path.join(binDir, 'local'), [], {
    env: { ...serviceEnv, PORT: String(cfg.port), SITE_DIR: path.join(releaseDir, 'site'), MEDIA_DIR: path.join(localDir, 'media') },
    logFile: path.join(localDir, 'logs', 'edge.log'),
  });
  await waitForPort(cfg.port, { child: edge });
  say('run', `the shop is running at http://127.0.0.1:${cfg.port}/  (request log: .local/logs/edge.log; Ctrl-C stops everything)`);
  const code = await edge.exited;
  if (isStopping()) return; // Ctrl-C: the signal handler stops the rest and exits
  say('run', `the edge stopped (${code}); stopping the rest`);
  await stopAll();
  process.exit(1);
}

main().catch(async (err) => {
  console.error(`run: ${err.message}`);
  await stopAll();
  process.exit(1);
});
