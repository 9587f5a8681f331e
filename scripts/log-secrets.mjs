// @ts-check
// The check that a log holds no secret (issue 34: "none carries a token, password, email
// body or card detail"): the test command runs it on the end-to-end edge's log after the
// e2e suite. It looks for
//   - every secret the end-to-end tests recorded (site/e2e/secrets.ts writes one JSON line
//     per test account's password and ID token to $E2E_SECRETS_FILE);
//   - anything shaped like a JSON Web Token (a Firebase ID token or session cookie), so a
//     token the browser minted itself, which no test sees, is caught too;
//   - the fixed sentences of the shop's emails (functions/internal/mail/templates), so no
//     email's text is logged.
// A finding names the line and what was found, never the secret itself.
import { existsSync, readFileSync } from 'node:fs';

/** Sentences every email of a kind carries, from functions/internal/mail/templates: the
 * confirmation, its totals block (also in the new-order notice), the dispatch notice and
 * the cancellation. */
export const EMAIL_TEXTS = [
  'Thank you for your order',
  'We will email you again when your order is dispatched',
  'Goods ex VAT:',
  'Total inc VAT:',
  'Tracking reference:',
  'We will refund the',
];

/** A JSON Web Token's header and payload: two base64url parts each starting with `{"`
 * (eyJ), joined by a dot. The emulator's tokens are unsigned, so the third part may be
 * empty; the first two are enough to say a token was written. */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}/;

/**
 * A secret a test used: a password or an ID token.
 * @typedef {{ kind: string, value: string }} Secret
 * @typedef {{ line: number, what: string }} Finding
 */

/** The secrets recorded in a file of JSON lines ({kind, value}); none when there is no
 * file (no test recorded any). A value shorter than 6 characters is refused: it would
 * match by chance.
 * @param {string} file
 * @returns {Secret[]} */
export function readSecrets(file) {
  if (!existsSync(file)) return [];
  /** @type {Map<string, Secret>} */
  const seen = new Map();
  for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (!line.trim()) continue;
    const s = JSON.parse(line);
    if (typeof s?.kind !== 'string' || typeof s?.value !== 'string' || s.value.length < 6) {
      throw new Error(`line ${i + 1} of ${file} is not a secret ({"kind", "value"} of at least 6 characters)`);
    }
    seen.set(s.value, { kind: s.kind, value: s.value });
  }
  return [...seen.values()];
}

/** What a log holds that it must not: one finding per line and thing found.
 * @param {string} log the log's text
 * @param {Secret[]} secrets
 * @returns {Finding[]} */
export function findLeaks(log, secrets) {
  /** @type {Finding[]} */
  const found = [];
  for (const [i, line] of log.split('\n').entries()) {
    const where = i + 1;
    const hits = secrets.filter((s) => line.includes(s.value));
    for (const s of hits) found.push({ line: where, what: `a test account's ${s.kind}` });
    // A token the tests recorded is named as such above, not twice.
    if (JWT.test(line) && !hits.some((s) => JWT.test(s.value))) found.push({ line: where, what: 'a JSON Web Token (an ID token or session cookie)' });
    for (const text of EMAIL_TEXTS) if (line.includes(text)) found.push({ line: where, what: `an email's text ("${text}")` });
  }
  return found;
}

/** Checks a log against the recorded secrets; throws, naming at most ten findings, when it
 * holds any, or when there is no log to check. Answers how many lines and secrets it read.
 * @param {{ logFile: string, secretsFile: string }} files
 * @returns {{ lines: number, secrets: number }} */
export function checkLog({ logFile, secretsFile }) {
  if (!existsSync(logFile)) throw new Error(`there is no log at ${logFile} to check for secrets`);
  const log = readFileSync(logFile, 'utf8');
  const secrets = readSecrets(secretsFile);
  const found = findLeaks(log, secrets);
  if (found.length) {
    const shown = found.slice(0, 10).map((f) => `line ${f.line}: ${f.what}`);
    if (found.length > 10) shown.push(`and ${found.length - 10} more`);
    throw new Error(`the edge log ${logFile} holds what no log may (docs/operations.md "What the logs never hold"):\n      ${shown.join('\n      ')}`);
  }
  return { lines: log.split('\n').filter((l) => l.trim()).length, secrets: secrets.length };
}
