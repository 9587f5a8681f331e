// @ts-check
// scripts/metrics reads the EMF lines of the issue 34 contract (/api request lines, an order
// placed and one refused, a store timeout, the email sender's, outbox and sweep lines) as
// CloudWatch would: a metric's value is the root key of its name, each dimension set files
// it once, a line may hold several directives; lines that are not JSON or not EMF, and
// lines outside the window, are skipped. Then the command itself: its report, --help, and
// bad usage refused with exit code 2.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { root } from './lib.mjs';
import { emfData, parseArguments, percentile, report, summarise, UsageError } from './metrics.mjs';

const NS = 'TradeShop/local';
const requestMetrics = [
  { Name: 'Requests', Unit: 'Count' },
  { Name: 'Status4xx', Unit: 'Count' },
  { Name: 'Status5xx', Unit: 'Count' },
  { Name: 'Latency', Unit: 'Milliseconds' },
];

/** The request line of one /api request, as the contract shapes it, with more directives.
 * @param {number} at Unix ms
 * @param {{ endpoint: string, group: string, status: number, ms: number, extra?: object[], fields?: object }} r */
function requestLine(at, { endpoint, group, status, ms, extra = [], fields = {} }) {
  return JSON.stringify({
    time: new Date(at).toISOString(),
    level: status >= 500 ? 'ERROR' : 'INFO',
    msg: 'request',
    request_id: `req-${at}-${endpoint}`,
    endpoint,
    build: 'a1b2c3d',
    group,
    status,
    _aws: {
      Timestamp: at,
      CloudWatchMetrics: [{ Namespace: NS, Dimensions: [['endpoint'], ['group']], Metrics: requestMetrics }, ...extra],
    },
    Requests: 1,
    Status4xx: status >= 400 && status < 500 ? 1 : 0,
    Status5xx: status >= 500 ? 1 : 0,
    Latency: ms,
    ...fields,
  });
}

/** A job's or gauge line: msg, endpoint (the job), metrics with no dimension.
 * @param {number} at
 * @param {string} msg
 * @param {string} endpoint
 * @param {Record<string, [number, string]>} metrics name: [value, unit] */
function gaugeLine(at, msg, endpoint, metrics) {
  return JSON.stringify({
    time: new Date(at).toISOString(),
    level: 'INFO',
    msg,
    endpoint,
    build: 'a1b2c3d',
    _aws: {
      Timestamp: at,
      CloudWatchMetrics: [{ Namespace: NS, Dimensions: [[]], Metrics: Object.entries(metrics).map(([Name, [, Unit]]) => ({ Name, Unit })) }],
    },
    ...Object.fromEntries(Object.entries(metrics).map(([name, [value]]) => [name, value])),
  });
}

/** A log of the local edge over a few minutes before now: requests to three endpoints of
 * two groups, an order placed and one refused, a store timeout, the jobs' lines, and lines
 * that are no metric at all.
 * @param {number} now */
function fixture(now) {
  const m = (/** @type {number} */ minutesAgo) => now - minutesAgo * 60_000;
  return [
    'edge listening on 127.0.0.1:8080', // not JSON
    JSON.stringify({ time: new Date(m(5)).toISOString(), level: 'INFO', msg: 'static', endpoint: 'site', build: 'a1b2c3d', path: '/' }), // no _aws
    '{"truncated": ', // broken JSON
    // An hour ago: outside the 15-minute window.
    requestLine(m(60), { endpoint: 'search', group: 'catalogue', status: 500, ms: 9000 }),
    ...[10, 20, 30, 40, 50, 60, 70, 80, 90, 1000].map((ms, i) => requestLine(m(10) + i, { endpoint: 'search', group: 'catalogue', status: 200, ms })),
    requestLine(m(9), { endpoint: 'prices', group: 'catalogue', status: 400, ms: 5 }),
    requestLine(m(8), {
      endpoint: 'orders',
      group: 'orders',
      status: 200,
      ms: 120,
      extra: [
        {
          Namespace: NS,
          Dimensions: [[]],
          Metrics: [
            { Name: 'OrdersPlaced', Unit: 'Count' },
            { Name: 'OrderValue', Unit: 'None' },
          ],
        },
      ],
      fields: { OrdersPlaced: 1, OrderValue: 12345 },
    }),
    requestLine(m(7), {
      endpoint: 'orders',
      group: 'orders',
      status: 409,
      ms: 80,
      extra: [{ Namespace: NS, Dimensions: [['reason']], Metrics: [{ Name: 'OrdersRefused', Unit: 'Count' }] }],
      fields: { OrdersRefused: 1, reason: 'short_stock' },
    }),
    requestLine(m(6), {
      endpoint: 'orders',
      group: 'orders',
      status: 503,
      ms: 3100,
      extra: [{ Namespace: NS, Dimensions: [[], ['endpoint']], Metrics: [{ Name: 'StoreTimeouts', Unit: 'Count' }] }],
      fields: { StoreTimeouts: 1 },
    }),
    requestLine(m(5), {
      endpoint: 'errors',
      group: 'errors',
      status: 202,
      ms: 3,
      extra: [
        {
          Namespace: NS,
          Dimensions: [[]],
          Metrics: [
            { Name: 'AppErrorReports', Unit: 'Count' },
            { Name: 'AppErrorReportsRefused', Unit: 'Count' },
          ],
        },
      ],
      fields: { AppErrorReports: 2, AppErrorReportsRefused: 0 },
    }),
    gaugeLine(m(4), 'emails sent', 'sendEmails', { EmailsSent: [2, 'Count'], EmailsFailed: [1, 'Count'] }),
    gaugeLine(m(4), 'outbox', 'sendEmails', { OutboxWaiting: [3, 'Count'], OutboxFailed: [1, 'Count'], OutboxOldestAge: [200, 'Seconds'] }),
    gaugeLine(m(2), 'outbox', 'sendEmails', { OutboxWaiting: [0, 'Count'], OutboxFailed: [1, 'Count'], OutboxOldestAge: [0, 'Seconds'] }),
    gaugeLine(m(3), 'orders swept', 'sweepOrders', {
      OrdersPending: [1, 'Count'],
      OrdersToInvoice: [2, 'Count'],
      OrdersPendingOldestAge: [30, 'Seconds'],
      OrdersToInvoiceOldestAge: [45, 'Seconds'],
    }),
  ];
}

test('emfData files each metric once per dimension set, with its value from the root key', () => {
  const at = 1795734763889;
  const data = emfData(
    requestLine(at, {
      endpoint: 'orders',
      group: 'orders',
      status: 200,
      ms: 42,
      extra: [
        {
          Namespace: NS,
          Dimensions: [[]],
          Metrics: [
            { Name: 'OrdersPlaced', Unit: 'Count' },
            { Name: 'OrderValue', Unit: 'None' },
          ],
        },
      ],
      fields: { OrdersPlaced: 1, OrderValue: 999 },
    }),
  );
  const shown = data.map((d) => `${d.name} ${d.unit} ${JSON.stringify(d.dims)} ${d.values.join(',')}`);
  assert.deepEqual(shown, [
    'Requests Count {"endpoint":"orders"} 1',
    'Requests Count {"group":"orders"} 1',
    'Status4xx Count {"endpoint":"orders"} 0',
    'Status4xx Count {"group":"orders"} 0',
    'Status5xx Count {"endpoint":"orders"} 0',
    'Status5xx Count {"group":"orders"} 0',
    'Latency Milliseconds {"endpoint":"orders"} 42',
    'Latency Milliseconds {"group":"orders"} 42',
    'OrdersPlaced Count {} 1',
    'OrderValue None {} 999',
  ]);
  assert.ok(data.every((d) => d.namespace === NS && d.at === at));
});

test('emfData skips what is not EMF, and a metric without a number or a dimension value', () => {
  assert.deepEqual(emfData('not json'), []);
  assert.deepEqual(emfData('{"broken": '), []);
  assert.deepEqual(emfData('{"msg":"request","endpoint":"orders"}'), []);
  assert.deepEqual(emfData('{"_aws":{"CloudWatchMetrics":[]}}'), [], 'no Timestamp');
  assert.deepEqual(emfData('REPORT RequestId: 6f1c Duration: 12.5 ms'), [], "the Lambda runtime's own line");
  // As `aws logs tail --format short` prints a Lambda's line: its time, then the message.
  const tailed = emfData('2026-11-27T00:10:00 ' + requestLine(1795734763889, { endpoint: 'search', group: 'catalogue', status: 200, ms: 7 }));
  assert.deepEqual(
    tailed.filter((d) => d.name === 'Latency').map((d) => d.values),
    [[7], [7]],
  );
  const line = JSON.stringify({
    _aws: {
      Timestamp: 1,
      CloudWatchMetrics: [{ Namespace: NS, Dimensions: [['endpoint'], []], Metrics: [{ Name: 'A' }, { Name: 'B', Unit: 'Count' }, { Name: 'C' }] }],
    },
    A: 'seven',
    B: 2,
    C: [1, 2, 3],
  });
  // No endpoint key: the ["endpoint"] set is dropped, the empty one kept; A is no number.
  assert.deepEqual(
    emfData(line).map((d) => `${d.name} ${d.unit} ${JSON.stringify(d.dims)} ${d.values.join(',')}`),
    ['B Count {} 2', 'C None {} 1,2,3'],
  );
});

test('percentile is the nearest rank', () => {
  const values = [10, 20, 30, 40, 50, 60, 70, 80, 90, 1000];
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 99), 1000);
  assert.equal(percentile([7], 99), 7);
  assert.equal(percentile([], 50), undefined);
});

test('the report of the last 15 minutes: per endpoint and group, the totals and the latest backlogs', async () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);
  const summary = await summarise(fixture(now), { since: now - 15 * 60_000, until: now });
  assert.equal(summary.lines, 19, 'the ten searches, prices, three orders, errors, emails, two outbox lines and the sweep');
  assert.deepEqual([...summary.namespaces], [NS]);
  const text = report(summary, 'edge.log, the last 15 minutes');
  const lines = text.map((l) => l.replace(/\s+/g, ' ').trim());
  assert.equal(lines[0], `edge.log, the last 15 minutes, 11:45:00–12:00:00 UTC: 19 metric lines (${NS})`);
  const row = (/** @type {string} */ name) => lines.filter((l) => new RegExp(`^${name}( [\\d.]+){5}$`).test(l));
  // endpoint requests 4xx 5xx p50 p99
  assert.deepEqual(row('search'), ['search 10 0 0 50 1000'], 'the hour-old 500 is outside the window');
  assert.deepEqual(row('orders'), ['orders 3 1 1 120 3100', 'orders 3 1 1 120 3100'], 'by endpoint and by group');
  assert.deepEqual(row('prices'), ['prices 1 1 0 5.0 5.0'], 'a tenth of a millisecond below 10');
  assert.deepEqual(row('catalogue'), ['catalogue 11 1 0 50 1000']);
  assert.deepEqual(row('total'), ['total 15 2 1 60 3100', 'total 15 2 1 60 3100']);
  assert.ok(lines.includes('orders placed 1, worth £123.45 with VAT'), text.join('\n'));
  assert.ok(lines.includes('orders refused 1 (short_stock 1)'));
  assert.ok(lines.includes('app error reports 2 recorded, 0 refused by the rate limit'));
  assert.ok(lines.includes('store timeouts 1 (orders 1)'));
  assert.ok(lines.includes('store throttles 0'));
  assert.ok(lines.includes('emails 2 sent, 1 failed'));
  assert.ok(lines.includes('email outbox 0 waiting, 1 failed, the oldest 0 s old (at 11:58:00)'), 'the latest outbox line');
  assert.ok(lines.includes('orders pending 1, the oldest 30 s old (at 11:57:00)'));
  assert.ok(lines.includes('orders to invoice 2, the oldest 45 s old (at 11:57:00)'));
});

test('an empty window says so', async () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);
  const summary = await summarise(fixture(now), { since: now - 60_000, until: now });
  assert.deepEqual(report(summary, 'edge.log'), [
    'edge.log, 11:59:00–12:00:00 UTC: 0 metric lines',
    'The newest metric line is from 2026-11-27T11:58:00.000Z: --minutes 2 reaches it.',
  ]);
  const none = await summarise(['not json'], { since: now - 60_000, until: now });
  assert.deepEqual(report(none, 'edge.log'), ['edge.log, 11:59:00–12:00:00 UTC: 0 metric lines']);
});

test('parseArguments: defaults, --minutes and --file, and bad usage', () => {
  assert.deepEqual(parseArguments(['--help']), { help: true });
  const dflt = parseArguments([]);
  assert.equal(dflt.help, false);
  assert.ok(!dflt.help && dflt.minutes === 15 && dflt.file === path.join(root, '.local', 'logs', 'edge.log'));
  const given = parseArguments(['--minutes', '2.5', '--file', 'x.log']);
  assert.ok(!given.help && given.minutes === 2.5 && given.file === path.resolve('x.log'));
  assert.throws(() => parseArguments(['--minutes', '0']), UsageError);
  assert.throws(() => parseArguments(['--minutes', 'ten']), UsageError);
  assert.throws(() => parseArguments(['--verbose']), UsageError);
  assert.throws(() => parseArguments(['edge.log']), UsageError);
});

/** Runs scripts/metrics (the wrapper) with args; answers { code, out, err }.
 * @param {string[]} args
 * @param {string} cwd
 * @returns {Promise<{ code: number | null, out: string, err: string }>} */
function metrics(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'scripts', 'metrics'), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

test('scripts/metrics: the report of a log, --help, and bad usage refused with exit code 2', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-metrics-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'edge.log'), fixture(Date.now()).join('\n') + '\n');

  const ok = await metrics(['--file', 'edge.log', '--minutes', '30'], dir);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /the last 30 minutes, .*: 19 metric lines \(TradeShop\/local\)/);
  assert.match(ok.out, /^ {2}search +10 +0 +0 +50 +1000$/m);
  assert.match(ok.out, /orders placed +1, worth £123\.45 with VAT/);

  const help = await metrics(['--help'], dir);
  assert.equal(help.code, 0);
  assert.match(help.out, /^usage: scripts\/metrics/);

  for (const args of [['--verbose'], ['--minutes', '-1'], ['edge.log']]) {
    const bad = await metrics(args, dir);
    assert.equal(bad.code, 2, args.join(' '));
    assert.match(bad.err, /^metrics: .*\nusage: scripts\/metrics/, args.join(' '));
  }

  const missing = await metrics(['--file', 'nowhere.log'], dir);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /^metrics: there is no log at .*nowhere\.log: start the shop with scripts\/run/);
});
