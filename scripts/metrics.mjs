// @ts-check
// Summarises the shop's metrics from a log of the local edge: the CloudWatch Embedded Metric
// Format (EMF) lines every /api request, the order flow, the store, the email sender and the
// sweep write (docs/operations.md "Metrics, locally"). Locally these lines are the metrics:
// scripts/run writes the edge's log to .local/logs/edge.log, and this reads it as CloudWatch
// would read the same lines in AWS.
//
//   scripts/metrics                    the last 15 minutes of .local/logs/edge.log
//   scripts/metrics --minutes 60       the last hour
//   scripts/metrics --file PATH        another log (the test command's edge.log, or a Lambda's
//                                      from `aws logs tail GROUP --since 1h --format short`)
//
// It prints, per endpoint and per endpoint group, requests, 4xx, 5xx and p50/p99 latency;
// then the totals of the other metrics (orders placed and their value, refusals by reason,
// app error reports, store timeouts and throttles, emails) and the latest backlog gauges
// (outbox, orders pending, orders to invoice). A line that is not JSON, or has no `_aws`
// directive, is skipped. Exit codes: 0 done, 1 no log to read, 2 bad usage.
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { localDir, root } from './lib.mjs';

/** The run command's edge log, read when no --file is given. */
export const DEFAULT_FILE = path.join(localDir, 'logs', 'edge.log');
export const DEFAULT_MINUTES = 15;

export const usage = `usage: scripts/metrics [--minutes N] [--file PATH]

Summarises the EMF metric lines of the local edge's log (docs/operations.md):
per endpoint and group, requests, 4xx, 5xx and p50/p99 latency; orders placed and their
value, refusals by reason, app error reports, store timeouts and throttles, emails; the
latest outbox and order backlogs.
  --minutes N   the last N minutes (default ${DEFAULT_MINUTES}; fractions allowed)
  --file PATH   the log to read (default .local/logs/edge.log, which scripts/run writes); a
                Lambda's log saved by \`aws logs tail GROUP --since 1h --format short\` too`;

/** A usage error: exit code 2 with the usage. */
export class UsageError extends Error {}

/** Reads the arguments. Throws UsageError.
 * @param {string[]} argv
 * @returns {{ help: true } | { help: false, file: string, minutes: number }} */
export function parseArguments(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' }, minutes: { type: 'string' }, file: { type: 'string' } },
    }));
  } catch (err) {
    throw new UsageError(err.message.split(/\.\s/)[0]);
  }
  if (values.help) return { help: true };
  const minutes = values.minutes === undefined ? DEFAULT_MINUTES : Number(values.minutes);
  if (!(minutes > 0) || !Number.isFinite(minutes)) throw new UsageError(`--minutes must be a number of minutes above 0 (got ${values.minutes})`);
  if (values.file === '') throw new UsageError('--file needs a path');
  return { help: false, file: values.file ? path.resolve(values.file) : DEFAULT_FILE, minutes };
}

/**
 * One metric's values on one line, under one dimension set, as CloudWatch files them: the
 * series is the namespace, the metric name and the dimension values.
 * @typedef {{ namespace: string, name: string, unit: string, dims: Record<string, string>, values: number[], at: number }} Datum
 */

/** The metric data of one log line: none when it is not JSON or not EMF. The JSON may follow
 * a prefix, as the timestamp `aws logs tail --format short` puts before each message. Follows the EMF
 * specification: `_aws.CloudWatchMetrics` is a list of directives, each with a Namespace,
 * Dimensions (a list of dimension sets, each a list of root keys whose string values
 * name the series) and Metrics (each a Name, whose value is the root key of that name: a
 * number or a list of numbers, and a Unit). A metric whose value is not a number, or whose
 * dimension key has no string value, is left out, as CloudWatch leaves it out.
 * @param {string} line
 * @returns {Datum[]} */
export function emfData(line) {
  const start = line.indexOf('{"');
  if (start < 0) return [];
  let root;
  try {
    root = JSON.parse(line.slice(start));
  } catch {
    return [];
  }
  const aws = root?._aws;
  if (!aws || typeof aws !== 'object' || !Array.isArray(aws.CloudWatchMetrics) || typeof aws.Timestamp !== 'number') return [];
  /** @type {Datum[]} */
  const out = [];
  for (const directive of aws.CloudWatchMetrics) {
    if (!directive || typeof directive.Namespace !== 'string' || !Array.isArray(directive.Metrics)) continue;
    // A directive with no Dimensions is filed with none, as one empty set.
    /** @type {unknown[]} */
    const sets = Array.isArray(directive.Dimensions) && directive.Dimensions.length ? directive.Dimensions : [[]];
    for (const metric of directive.Metrics) {
      const name = metric?.Name;
      if (typeof name !== 'string') continue;
      const raw = root[name];
      const values = (Array.isArray(raw) ? raw : [raw]).filter((v) => typeof v === 'number' && Number.isFinite(v));
      if (!values.length) continue;
      for (const set of sets) {
        if (!Array.isArray(set)) continue;
        /** @type {Record<string, string>} */
        const dims = {};
        let complete = true;
        for (const key of set) {
          if (typeof key === 'string' && typeof root[key] === 'string') dims[key] = root[key];
          else complete = false;
        }
        if (complete)
          out.push({ namespace: directive.Namespace, name, unit: typeof metric.Unit === 'string' ? metric.Unit : 'None', dims, values, at: aws.Timestamp });
      }
    }
  }
  return out;
}

/** The series key of a datum: its metric name and its dimensions, in key order (one
 * namespace per log, so the namespace is kept aside).
 * @param {string} name
 * @param {Record<string, string>} dims */
const seriesKey = (name, dims) =>
  [
    name,
    ...Object.keys(dims)
      .sort()
      .map((k) => `${k}=${dims[k]}`),
  ].join('|');

/**
 * Every series seen: its values in log order and the time of the latest.
 * @typedef {{ name: string, dims: Record<string, string>, values: number[], latest: number, latestAt: number }} Series
 * @typedef {{ lines: number, namespaces: Set<string>, series: Map<string, Series>, from: number, to: number, newest: number | undefined }} Summary
 */

/** Reads EMF lines and keeps those stamped from `since` (Unix ms) on.
 * @param {AsyncIterable<string> | Iterable<string>} lines
 * @param {{ since: number, until: number }} window
 * @returns {Promise<Summary>} */
export async function summarise(lines, { since, until }) {
  /** @type {Summary} */
  const summary = { lines: 0, namespaces: new Set(), series: new Map(), from: since, to: until, newest: undefined };
  for await (const line of lines) {
    const data = emfData(line);
    if (!data.length) continue;
    summary.newest = Math.max(summary.newest ?? -Infinity, data[0].at);
    if (data[0].at < since || data[0].at > until) continue;
    summary.lines++;
    for (const d of data) {
      summary.namespaces.add(d.namespace);
      const key = seriesKey(d.name, d.dims);
      let s = summary.series.get(key);
      if (!s) summary.series.set(key, (s = { name: d.name, dims: d.dims, values: [], latest: 0, latestAt: -Infinity }));
      s.values.push(...d.values);
      if (d.at >= s.latestAt) {
        s.latestAt = d.at;
        s.latest = d.values[d.values.length - 1];
      }
    }
  }
  return summary;
}

/** The p-th percentile of values by the nearest rank (the smallest value with at least p%
 * of the values at or below it), or undefined for none.
 * @param {number[]} values
 * @param {number} p */
export function percentile(values, p) {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

const sum = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0);

/** The series of a metric with exactly these dimension keys.
 * @param {Summary} summary
 * @param {string} name
 * @param {string[]} keys */
function seriesOf(summary, name, keys) {
  const want = [...keys].sort().join(',');
  return [...summary.series.values()].filter((s) => s.name === name && Object.keys(s.dims).sort().join(',') === want);
}

/** The total of a metric's series with no dimension. @param {Summary} summary @param {string} name */
const total = (summary, name) => sum(seriesOf(summary, name, []).flatMap((s) => s.values));

/** The latest value of a dimensionless gauge, or undefined when none was written.
 * @param {Summary} summary @param {string} name */
function latest(summary, name) {
  const [s] = seriesOf(summary, name, []);
  return s && { value: s.latest, at: s.latestAt };
}

/** A table of the request metrics by one dimension (endpoint or group): one row each,
 * busiest first, then a total row.
 * @param {Summary} summary
 * @param {string} dim */
function requestTable(summary, dim) {
  /** @type {Map<string, { requests: number, s4xx: number, s5xx: number, latency: number[] }>} */
  const rows = new Map();
  const row = (/** @type {string} */ v) => {
    let r = rows.get(v);
    if (!r) rows.set(v, (r = { requests: 0, s4xx: 0, s5xx: 0, latency: [] }));
    return r;
  };
  for (const s of seriesOf(summary, 'Requests', [dim])) row(s.dims[dim]).requests += sum(s.values);
  for (const s of seriesOf(summary, 'Status4xx', [dim])) row(s.dims[dim]).s4xx += sum(s.values);
  for (const s of seriesOf(summary, 'Status5xx', [dim])) row(s.dims[dim]).s5xx += sum(s.values);
  for (const s of seriesOf(summary, 'Latency', [dim])) row(s.dims[dim]).latency.push(...s.values);
  if (!rows.size) return [];
  const all = { requests: 0, s4xx: 0, s5xx: 0, latency: /** @type {number[]} */ ([]) };
  for (const r of rows.values()) {
    all.requests += r.requests;
    all.s4xx += r.s4xx;
    all.s5xx += r.s5xx;
    all.latency.push(...r.latency);
  }
  // Whole milliseconds, but a tenth below 10 ms: a fast endpoint's latency is not 0.
  const ms = (/** @type {number | undefined} */ v) => (v === undefined ? '-' : v < 10 ? v.toFixed(1) : String(Math.round(v)));
  const width = Math.max(dim.length, 5, ...[...rows.keys()].map((k) => k.length));
  const line = (/** @type {string} */ name, /** @type {typeof all} */ r) =>
    `  ${name.padEnd(width)} ${String(r.requests).padStart(8)} ${String(r.s4xx).padStart(6)} ${String(r.s5xx).padStart(6)} ${ms(percentile(r.latency, 50)).padStart(7)} ${ms(percentile(r.latency, 99)).padStart(7)}`;
  return [
    `  ${dim.padEnd(width)} ${'requests'.padStart(8)} ${'4xx'.padStart(6)} ${'5xx'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`,
    ...[...rows.entries()].sort((a, b) => b[1].requests - a[1].requests || a[0].localeCompare(b[0])).map(([name, r]) => line(name, r)),
    line('total', all),
  ];
}

/** Pence as pounds: 12345 → £123.45. @param {number} pence */
const pounds = (pence) => `£${(pence / 100).toFixed(2)}`;

/** A clock time in UTC, to the second. @param {number} ms */
const clock = (ms) => new Date(ms).toISOString().slice(11, 19);

/** The report of a summary, as lines of text.
 * @param {Summary} summary
 * @param {string} source what was read, for the first line
 * @returns {string[]} */
export function report(summary, source) {
  const window = `${clock(summary.from)}–${clock(summary.to)} UTC`;
  const ns = summary.namespaces.size ? ` (${[...summary.namespaces].sort().join(', ')})` : '';
  const out = [`${source}, ${window}: ${summary.lines} metric line${summary.lines === 1 ? '' : 's'}${ns}`];
  if (!summary.lines) {
    // An idle shop, or an older log: say how far back the newest line is.
    if (summary.newest !== undefined && summary.newest < summary.from) {
      const minutes = Math.ceil((summary.to - summary.newest) / 60_000);
      out.push(`The newest metric line is from ${new Date(summary.newest).toISOString()}: --minutes ${minutes} reaches it.`);
    }
    return out;
  }

  const byEndpoint = requestTable(summary, 'endpoint');
  const byGroup = requestTable(summary, 'group');
  out.push('', ...(byEndpoint.length ? ['Requests by endpoint', ...byEndpoint] : ['No /api request in this window.']));
  if (byGroup.length) out.push('', 'Requests by group (the alarms watch these)', ...byGroup);

  const refused = seriesOf(summary, 'OrdersRefused', ['reason'])
    .map((s) => /** @type {[string, number]} */ ([s.dims.reason, sum(s.values)]))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const refusedTotal = sum(refused.map(([, n]) => n));
  const timeoutsBy = (/** @type {string} */ name) =>
    seriesOf(summary, name, ['endpoint'])
      .map((s) => `${s.dims.endpoint} ${sum(s.values)}`)
      .sort()
      .join(', ');
  const withDetail = (/** @type {number} */ n, /** @type {string} */ detail) => (n && detail ? `${n} (${detail})` : String(n));
  out.push(
    '',
    'Totals',
    `  orders placed         ${total(summary, 'OrdersPlaced')}, worth ${pounds(total(summary, 'OrderValue'))} with VAT`,
    `  orders refused        ${withDetail(refusedTotal, refused.map(([reason, n]) => `${reason} ${n}`).join(', '))}`,
    `  app error reports     ${total(summary, 'AppErrorReports')} recorded, ${total(summary, 'AppErrorReportsRefused')} refused by the rate limit`,
    `  store timeouts        ${withDetail(total(summary, 'StoreTimeouts'), timeoutsBy('StoreTimeouts'))}`,
    `  store throttles       ${withDetail(total(summary, 'StoreThrottles'), timeoutsBy('StoreThrottles'))}`,
    `  emails                ${total(summary, 'EmailsSent')} sent, ${total(summary, 'EmailsFailed')} failed`,
  );

  const gauge = (/** @type {string} */ name) => latest(summary, name);
  const outbox = gauge('OutboxWaiting');
  const pending = gauge('OrdersPending');
  const toInvoice = gauge('OrdersToInvoice');
  out.push('', 'Backlogs (the latest reading)');
  out.push(
    outbox
      ? `  email outbox          ${outbox.value} waiting, ${gauge('OutboxFailed')?.value ?? 0} failed, the oldest ${gauge('OutboxOldestAge')?.value ?? 0} s old (at ${clock(outbox.at)})`
      : '  email outbox          no reading in this window (the outbox line comes once a minute)',
  );
  out.push(
    pending
      ? `  orders pending        ${pending.value}, the oldest ${gauge('OrdersPendingOldestAge')?.value ?? 0} s old (at ${clock(pending.at)})`
      : '  orders pending        no reading in this window (the sweep writes it each run)',
  );
  out.push(
    toInvoice
      ? `  orders to invoice     ${toInvoice.value}, the oldest ${gauge('OrdersToInvoiceOldestAge')?.value ?? 0} s old (at ${clock(toInvoice.at)})`
      : '  orders to invoice     no reading in this window (the sweep writes it each run)',
  );

  // A metric this report does not know yet is still shown, by its total with no dimension.
  const known = new Set([
    'Requests',
    'Status4xx',
    'Status5xx',
    'Latency',
    'OrdersPlaced',
    'OrderValue',
    'OrdersRefused',
    'AppErrorReports',
    'AppErrorReportsRefused',
    'StoreTimeouts',
    'StoreThrottles',
    'EmailsSent',
    'EmailsFailed',
    'OutboxWaiting',
    'OutboxFailed',
    'OutboxOldestAge',
    'OrdersPending',
    'OrdersToInvoice',
    'OrdersPendingOldestAge',
    'OrdersToInvoiceOldestAge',
  ]);
  const others = [...new Set([...summary.series.values()].map((s) => s.name))].filter((n) => !known.has(n)).sort();
  if (others.length) {
    out.push('', 'Other metrics (sum over the window)');
    for (const name of others) {
      const values = [...summary.series.values()].filter((s) => s.name === name && !Object.keys(s.dims).length).flatMap((s) => s.values);
      const any = values.length ? values : [...summary.series.values()].filter((s) => s.name === name).flatMap((s) => s.values);
      out.push(`  ${name.padEnd(21)} ${sum(any)}`);
    }
  }
  return out;
}

/** Runs the command; answers the exit code.
 * @param {string[]} argv
 * @param {{ now?: number }} [options] */
export async function main(argv, { now = Date.now() } = {}) {
  let args;
  try {
    args = parseArguments(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`metrics: ${err.message}\n${usage}`);
    return 2;
  }
  if (args.help) {
    console.log(usage);
    return 0;
  }
  const shown = path.relative(root, args.file).startsWith('..') ? args.file : path.relative(root, args.file);
  if (!existsSync(args.file)) {
    console.error(`metrics: there is no log at ${shown}: start the shop with scripts/run, or name a log with --file`);
    return 1;
  }
  const lines = createInterface({ input: createReadStream(args.file), crlfDelay: Infinity });
  const summary = await summarise(lines, { since: now - args.minutes * 60_000, until: now });
  const span = args.minutes === 1 ? 'the last minute' : `the last ${args.minutes} minutes`;
  console.log(report(summary, `${shown}, ${span}`).join('\n'));
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
