// @ts-check
// maildev as the run, test and fault commands start it (scripts/maildev.mjs): on 127.0.0.1
// only, at the ports given, keeping what it receives in its folder across a restart, with
// no setting of the caller's environment (such as its relay to real addresses) taken up.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { freePort, stopAll } from './lib.mjs';
import { maildevEmails, startMaildev } from './maildev.mjs';

/** Sends one email over SMTP to 127.0.0.1:port, as a plain SMTP client does.
 * @param {number} port
 * @param {{ from: string, to: string, subject: string, body: string }} email
 * @returns {Promise<void>} */
function smtpSend(port, { from, to, subject, body }) {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: '127.0.0.1', port });
    const script = [
      `EHLO test.local`,
      `MAIL FROM:<${from}>`,
      `RCPT TO:<${to}>`,
      'DATA',
      `From: <${from}>\r\nTo: <${to}>\r\nSubject: ${subject}\r\nMessage-ID: <${subject}@test.local>\r\n\r\n${body}\r\n.`,
      'QUIT',
    ];
    let buf = '';
    sock.setEncoding('utf8');
    sock.setTimeout(10000, () => sock.destroy(new Error('SMTP timed out')));
    sock.on('data', (d) => {
      buf += d;
      // One command per complete answer (the last line of a reply has a space after its code).
      while (/^\d{3} .*\r?\n/m.test(buf)) {
        const m = /^(\d{3}) .*\r?\n/m.exec(buf);
        if (!m) break;
        buf = buf.slice(m.index + m[0].length);
        if (Number(m[1]) >= 400) return sock.destroy(new Error(`SMTP answered ${m[0].trim()}`));
        const next = script.shift();
        if (next === undefined) return;
        sock.write(next + '\r\n');
      }
    });
    sock.on('error', reject);
    sock.on('close', () => (script.length ? reject(new Error('SMTP closed early')) : resolve()));
  });
}

/** An address of this machine other than loopback, or null. */
function otherAddress() {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/** Whether a TCP connection to host:port succeeds.
 * @param {string} host
 * @param {number} port
 * @returns {Promise<boolean>} */
function reachable(host, port) {
  return new Promise((resolve) => {
    const sock = connect({ host, port }, () => {
      sock.end();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
}

test('maildev takes email on loopback, lists it on its API, keeps it across a restart and relays nothing', { timeout: 90000 }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-maildev-'));
  t.after(async () => {
    await stopAll(2000);
    rmSync(dir, { recursive: true, force: true });
  });
  // Were maildev to read its own variables from our environment, this would relay every
  // email it receives to a real server.
  process.env.MAILDEV_AUTO_RELAY = 'someone@example.com';
  process.env.MAILDEV_OUTGOING_HOST = '127.0.0.1';
  t.after(() => {
    delete process.env.MAILDEV_AUTO_RELAY;
    delete process.env.MAILDEV_OUTGOING_HOST;
  });
  const [smtpPort, webPort] = [await freePort(), await freePort()];
  let m = await startMaildev({ smtpPort, webPort, dir, logFile: path.join(dir, 'maildev.log') });
  assert.equal(m.url, `http://127.0.0.1:${webPort}`);
  const config = /** @type {{ isOutgoingEnabled: boolean }} */ (await (await fetch(`${m.url}/api/config`)).json());
  assert.equal(config.isOutgoingEnabled, false, 'maildev took up a relay setting of the environment');
  const other = otherAddress();
  if (other) {
    assert.equal(await reachable(other, smtpPort), false, `SMTP answers on ${other}`);
    assert.equal(await reachable(other, webPort), false, `the inbox answers on ${other}`);
  }

  await smtpSend(smtpPort, { from: 'trade@shop.test', to: 'buyer@shop.test', subject: 'maildev-test-1', body: 'Hello' });
  const emails = await maildevEmails(m.url);
  assert.equal(emails.length, 1);
  assert.equal(emails[0].subject, 'maildev-test-1');
  assert.equal(emails[0].to[0].address, 'buyer@shop.test');
  assert.equal(emails[0].headers['message-id'], '<maildev-test-1@test.local>');

  // Stopped (as the fault suite kills it) and started again on the same ports: the inbox
  // still holds what it had.
  process.kill(/** @type {number} */ (m.child.pid), 'SIGKILL');
  await m.child.exited;
  m = await startMaildev({ smtpPort, webPort, dir, logFile: path.join(dir, 'maildev.log') });
  await smtpSend(smtpPort, { from: 'trade@shop.test', to: 'buyer@shop.test', subject: 'maildev-test-2', body: 'Again' });
  assert.deepEqual((await maildevEmails(m.url)).map((e) => e.subject).sort(), ['maildev-test-1', 'maildev-test-2']);
});
