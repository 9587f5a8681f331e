// @ts-check
// The local mail server of the run, test and fault commands: maildev (the npm package,
// a root dev dependency pinned in package-lock.json), a real SMTP server that keeps every
// email it is sent and shows them in a web inbox, with a REST API the tests read
// (GET /api/email lists every email, with its headers and bodies). Nothing it receives
// leaves the machine: it listens on 127.0.0.1 only, and it is started with a config file
// of our own (no maildev config file found above the working directory, no MAILDEV_*
// variable of the caller's environment, can turn on its relay to real addresses).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, startService, waitForPort } from './lib.mjs';

const bin = path.join(root, 'node_modules', 'maildev', 'dist', 'bin', 'maildev.js');

/** maildev's own environment variables (its config/env.js): unset for the child, so the
 * settings below are the only ones. */
const MAILDEV_VARIABLES = [
  'MAILDEV_SMTP_PORT',
  'MAILDEV_IP',
  'MAILDEV_INCOMING_USER',
  'MAILDEV_INCOMING_PASS',
  'MAILDEV_INCOMING_SECURE',
  'MAILDEV_INCOMING_CERT',
  'MAILDEV_INCOMING_KEY',
  'MAILDEV_MAX_MESSAGE_SIZE',
  'MAILDEV_WEB_PORT',
  'MAILDEV_WEB_IP',
  'MAILDEV_WEB_USER',
  'MAILDEV_WEB_PASS',
  'MAILDEV_BASE_PATHNAME',
  'MAILDEV_HTTPS',
  'MAILDEV_HTTPS_CERT',
  'MAILDEV_HTTPS_KEY',
  'MAILDEV_OUTGOING_HOST',
  'MAILDEV_OUTGOING_PORT',
  'MAILDEV_OUTGOING_USER',
  'MAILDEV_OUTGOING_PASS',
  'MAILDEV_OUTGOING_SECURE',
  'MAILDEV_AUTO_RELAY',
  'MAILDEV_AUTO_RELAY_RULES',
  'MAILDEV_MAIL_DIRECTORY',
  'MAILDEV_MAX_EMAILS',
  'MAILDEV_API_URL',
  'MAILDEV_DISABLE_WEB',
  'MAILDEV_MCP',
  'MAILDEV_VERBOSE',
  'MAILDEV_SILENT',
  'MAILDEV_HIDE_EXTENSIONS',
];

/** The arguments maildev runs with: SMTP and the web inbox on 127.0.0.1 at the given
 * ports, emails kept in mailDir (and read back from it on a restart), settings from
 * configFile only.
 * @param {{ smtpPort: number, webPort: number, mailDir: string, configFile: string }} options */
export function maildevArgs({ smtpPort, webPort, mailDir, configFile }) {
  return [
    '--config',
    configFile,
    '--smtp',
    String(smtpPort),
    '--ip',
    '127.0.0.1',
    '--web',
    String(webPort),
    '--web-ip',
    '127.0.0.1',
    '--mail-directory',
    mailDir,
  ];
}

/** Starts maildev (see above) and waits until both ports answer; answers { child, url,
 * smtpPort, webPort }, url being the web inbox and REST API base. stopAll stops it.
 * @param {{ smtpPort: number, webPort: number, dir: string, logFile?: string }} options */
export async function startMaildev({ smtpPort, webPort, dir, logFile }) {
  const mailDir = path.join(dir, 'mail');
  mkdirSync(mailDir, { recursive: true });
  const configFile = path.join(dir, 'maildevrc.json');
  writeFileSync(configFile, '{}\n');
  const env = Object.fromEntries(MAILDEV_VARIABLES.map((v) => [v, undefined]));
  const child = startService('maildev', process.execPath, [bin, ...maildevArgs({ smtpPort, webPort, mailDir, configFile })], { env, logFile });
  await waitForPort(smtpPort, { child, timeoutMs: 30000 });
  await waitForPort(webPort, { child, timeoutMs: 30000 });
  return { child, url: `http://127.0.0.1:${webPort}`, smtpPort, webPort };
}

/**
 * An email as maildev's REST API answers it (the fields the tests read).
 * @typedef {{ subject: string, to: { address: string }[], headers: Record<string, string>, text?: string, html?: string }} MaildevEmail
 */

/** Every email maildev holds (its REST API's GET /api/email).
 * @param {string} url
 * @returns {Promise<MaildevEmail[]>} */
export async function maildevEmails(url) {
  const res = await fetch(`${url}/api/email`, { signal: AbortSignal.timeout(10000) });
  if (!res.ok) throw new Error(`maildev GET /api/email answered ${res.status}`);
  return /** @type {Promise<MaildevEmail[]>} */ (res.json());
}
