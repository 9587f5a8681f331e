// @ts-check
// Builds every Lambda as the cloud runs it: one `bootstrap` per function for the
// provided.al2023 runtime on arm64, with `-tags lambda.norpc` (no RPC shim, smaller and
// faster to start), stripped and reproducible (-trimpath). The functions are the /api
// endpoints in functions/internal/api/endpoints.json plus notFound (CloudFront's fallback
// origin) and its scheduled jobs: sweepOrders (the undo of dead large orders, docs/orders.md)
// and sendEmails (the outbox's sender, docs/back-office.md "Emails"). The CDK app packages
// OUT/{name}/ as each function's code.
//
//   node scripts/build-lambdas.mjs [OUT]     # default .local/lambda
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { localDir, root, run, say } from './lib.mjs';

export const defaultLambdaDir = path.join(localDir, 'lambda');

/** The names of every Lambda: the /api endpoints, then notFound, then the jobs. */
export function lambdaNames() {
  const file = path.join(root, 'functions', 'internal', 'api', 'endpoints.json');
  const { endpoints, jobs } = /** @type {{ endpoints: { name: string }[], jobs: { name: string }[] }} */ (JSON.parse(readFileSync(file, 'utf8')));
  return [...endpoints.map((e) => e.name), 'notFound', ...jobs.map((j) => j.name)];
}

/** Cross-compiles every Lambda into outDir/{name}/bootstrap; answers [{name, bytes}]. */
export async function buildLambdas(outDir = defaultLambdaDir) {
  const names = lambdaNames();
  const fnDir = path.join(root, 'functions');
  mkdirSync(outDir, { recursive: true });
  const staging = mkdtempSync(path.join(outDir, '.build-'));
  say('lambda', `building ${names.length} functions for linux/arm64 (provided.al2023, -tags lambda.norpc)`);
  try {
    // One go build for all of them, so compiling and linking run in parallel.
    await run('go', ['build', '-tags', 'lambda.norpc', '-trimpath', '-ldflags=-s -w', '-o', staging + '/',
      ...names.map((n) => `./cmd/${n}`)], {
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
