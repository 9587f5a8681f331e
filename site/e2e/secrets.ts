import { appendFileSync } from 'node:fs';

// The secrets the end-to-end tests use, recorded so the test command can check that the
// edge's log holds none of them (scripts/log-secrets.mjs, docs/operations.md "What the logs
// never hold"). scripts/test names the file in E2E_SECRETS_FILE; run another way, nothing
// is recorded.

/** Records a password or ID token a test account uses: one JSON line in $E2E_SECRETS_FILE. */
export function recordSecret(kind: 'password' | 'ID token', value: string): void {
  const file = process.env.E2E_SECRETS_FILE;
  if (file && value) appendFileSync(file, JSON.stringify({ kind, value }) + '\n');
}
