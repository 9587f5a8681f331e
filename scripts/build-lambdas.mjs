// @ts-check
// Builds every Lambda as the cloud runs it: one `bootstrap` per binary for the
// provided.al2023 runtime on arm64, with `-tags lambda.norpc` (no RPC shim, smaller and
// faster to start), stripped and reproducible (-trimpath). The binaries are `api`, which
// every /api endpoint's function runs (functions/cmd/api: the CDK app tells each function
// its endpoint of functions/internal/api/endpoints.json in API_ENDPOINT, so a new endpoint
// needs no build step of its own), notFound (CloudFront's fallback origin) and the
// scheduled jobs of endpoints.json: sweepOrders (the undo of dead large orders,
// docs/orders.md) and sendEmails (the outbox's sender, docs/back-office.md "Emails"). The
// CDK app packages OUT/{name}/ as a function's code.
//
//   node scripts/build-lambdas.mjs [OUT]     # default .local/lambda
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { localDir, root, run, say } from './lib.mjs';

export const defaultLambdaDir = path.join(localDir, 'lambda');

/** The binary every /api endpoint's function runs (functions/cmd/api). */
export const apiBinary = 'api';

/** The names of every Lambda binary (each a functions/cmd/{name}): api, notFound, then the jobs. */
export function lambdaNames() {
  const file = path.join(root, 'functions', 'internal', 'api', 'endpoints.json');
  const { jobs } = /** @type {{ jobs: { name: string }[] }} */ (JSON.parse(readFileSync(file, 'utf8')));
  return [apiBinary, 'notFound', ...jobs.map((j) => j.name)];
}

/** Cross-compiles every Lambda into outDir/{name}/bootstrap; answers [{name, bytes}]. */
export async function buildLambdas(outDir = defaultLambdaDir) {
  const names = lambdaNames();
  const fnDir = path.join(root, 'functions');
  mkdirSync(outDir, { recursive: true });
  const staging = mkdtempSync(path.join(outDir, '.build-'));
  say('lambda', `building ${names.length} binaries for linux/arm64 (provided.al2023, -tags lambda.norpc)`);
  try {
    // One go build for all of them, so compiling and linking run in parallel.
    await run('go', ['build', '-tags', 'lambda.norpc', '-trimpath', '-ldflags=-s -w', '-o', staging + '/', ...names.map((n) => `./cmd/${n}`)], {
      cwd: fnDir,
      env: { ...process.env, GOOS: 'linux', GOARCH: 'arm64', CGO_ENABLED: '0' },
    });
    return names.map((name) => {
      const dir = path.join(outDir, name);
      mkdirSync(dir, { recursive: true });
      const bootstrap = path.join(dir, 'bootstrap');
      renameSync(path.join(staging, name), bootstrap);
      return { name, bytes: statSync(bootstrap).size };
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildLambdas(process.argv[2] ? path.resolve(process.argv[2]) : undefined).then(
    (built) => {
      for (const b of built) say('lambda', `  ${b.name}: ${(b.bytes / 1e6).toFixed(1)} MB`);
    },
    (err) => {
      console.error(`build-lambdas: ${err.message}`);
      process.exit(1);
    },
  );
}
