import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_GROUPS, loadEndpoints } from '../lib/endpoints';
import { DASHBOARD_WIDGETS, MAX_METRICS_PER_ALARM, REFUSAL_REASONS, TABLE_OPERATIONS, THRESHOLDS, groupWidgets } from '../lib/monitoring';
import { STAGES } from '../lib/shop-stack';
import { alarmEmail, edgeAlarmsTemplate, functionNames, rawFile, resources, stackTemplate } from './fixtures';

// The contract's numbers, written out here rather than read from THRESHOLDS, so that a
// change to a threshold is a change to this test too (and to docs/infrastructure.md).
const CONTRACT = {
  fiveXxPercent: 5,
  minRequests: 20,
  p99LatencyMs: 3000,
  adminP99LatencyMs: 20000,
  lambdaErrors: 5,
  lambdaThrottles: 1,
  jobErrors: 3,
  tableThrottles: 1,
  tableSystemErrors: 1,
  cdnFiveXxPercent: 5,
  appErrorReportsPerMinute: 30,
  outboxOldestAgeSeconds: 900,
  ordersOldestAgeSeconds: 600,
};

type Props = Record<string, any>;
const jobs = rawFile.jobs.map((j) => j.name);
const groups = [...new Set(loadEndpoints().map((e) => e.group))];

describe('THRESHOLDS', () => {
  it('are the contract numbers', () => {
    expect(THRESHOLDS).toEqual(CONTRACT);
  });
});

describe.each(STAGES)('ShopMonitoring in the %s stack', (stage) => {
  const t = stackTemplate(stage);
  const alarms = Object.values(resources(t, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties as Props);
  const topics = Object.keys(resources(t, 'AWS::SNS::Topic'));
  const namespace = `TradeShop/${stage}`;
  const alarm = (title: string): Props => {
    const found = alarms.filter((a) => a['AlarmName'] === `TradeShop-${stage} ${title}`);
    expect(found, title).toHaveLength(1);
    return found[0]!;
  };
  /** The metrics an expression alarm reads (not the expression itself). */
  const inputs = (a: Props): Props[] => (a['Metrics'] as Props[]).filter((m) => m['MetricStat'] !== undefined);
  const fnRef = (m: Props) => JSON.stringify(m['MetricStat']['Metric']['Dimensions']);

  it('has one alarm topic, TLS only, with the operations address subscribed by email', () => {
    expect(topics).toHaveLength(1);
    t.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: alarmEmail, TopicArn: { Ref: topics[0] } });
    t.resourceCountIs('AWS::SNS::Subscription', 1);
    const policy = Object.values(resources(t, 'AWS::SNS::TopicPolicy'))[0]!.Properties['PolicyDocument'].Statement as Props[];
    expect(policy).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  });

  it('sends every alarm to the topic, on ALARM and on OK', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const a of alarms) {
      expect(a['AlarmActions'], a['AlarmName']).toEqual([{ Ref: topics[0] }]);
      expect(a['OKActions'], a['AlarmName']).toEqual([{ Ref: topics[0] }]);
      expect(a['AlarmName']).toMatch(new RegExp(`^TradeShop-${stage} `));
    }
  });

  it('has every group of the contract, and each endpoint in one of them', () => {
    expect(groups.every((g) => (ENDPOINT_GROUPS as readonly string[]).includes(g))).toBe(true);
    expect([...groups].sort()).toEqual([...ENDPOINT_GROUPS].sort());
  });

  it.each(groups)('alarms on the %s group 5xx rate: over 5% of 5 minutes, judged from 20 requests, 1 of 1', (group) => {
    const a = alarm(`${group} 5xx rate`);
    expect(a).toMatchObject({
      Threshold: CONTRACT.fiveXxPercent,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      TreatMissingData: 'notBreaching',
    });
    const expr = (a['Metrics'] as Props[]).find((m) => m['Expression'] !== undefined)!;
    expect(expr['Expression']).toBe(`IF(requests >= ${CONTRACT.minRequests}, 100 * errors / requests, 0)`);
    const metric = (id: string) => (a['Metrics'] as Props[]).find((m) => m['Id'] === id)!['MetricStat'];
    for (const [id, name] of [
      ['requests', 'Requests'],
      ['errors', 'Status5xx'],
    ] as const) {
      expect(metric(id)).toEqual({
        Metric: { Namespace: namespace, MetricName: name, Dimensions: [{ Name: 'group', Value: group }] },
        Period: 300,
        Stat: 'Sum',
      });
    }
  });

  it.each(groups)('alarms on the %s group p99 latency: over 3 s (admin 20 s) for 3 of 3 periods of 5 minutes', (group) => {
    expect(alarm(`${group} p99 latency`)).toMatchObject({
      Namespace: namespace,
      MetricName: 'Latency',
      Dimensions: [{ Name: 'group', Value: group }],
      ExtendedStatistic: 'p99',
      Period: 300,
      Threshold: group === 'admin' ? CONTRACT.adminP99LatencyMs : CONTRACT.p99LatencyMs,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      TreatMissingData: 'notBreaching',
    });
  });

  /** Lambda alarms of one kind: each reads the largest of at most 10 functions' 5-minute sums. */
  const lambdaAlarms = (kind: 'errors' | 'throttles', metricName: string) => {
    const found = alarms.filter((a) => new RegExp(` Lambda ${kind}( \\d+)?$`).test(a['AlarmName']));
    for (const a of found) {
      const ms = inputs(a);
      expect(ms.length).toBeGreaterThan(0);
      expect(ms.length).toBeLessThanOrEqual(MAX_METRICS_PER_ALARM);
      for (const m of ms) expect(m['MetricStat']).toMatchObject({ Metric: { Namespace: 'AWS/Lambda', MetricName: metricName }, Period: 300, Stat: 'Sum' });
      expect((a['Metrics'] as Props[]).find((m) => m['Expression'])!['Expression']).toBe(`MAX([${ms.map((m) => m['Id']).join(', ')}])`);
    }
    return found;
  };
  const lambdaId = (name: string) => {
    const fns = resources(t, 'AWS::Lambda::Function');
    const ids = Object.keys(fns).filter((id) => id.includes(name) && fns[id]!.Properties['Runtime'] === 'provided.al2023');
    // Endpoint names are prefixes of others (order, orders): take the shortest id.
    return ids.sort((a, b) => a.length - b.length)[0]!;
  };

  it('alarms when any shop function (not the jobs) fails 5 times in 5 minutes, each function in exactly one alarm', () => {
    const found = lambdaAlarms('errors', 'Errors');
    for (const a of found)
      expect(a).toMatchObject({
        Threshold: CONTRACT.lambdaErrors,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    const watched = found.flatMap((a) => inputs(a).map(fnRef));
    for (const name of functionNames.filter((n) => !jobs.includes(n))) {
      expect(
        watched.filter((w) => w === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: lambdaId(name) } }])),
        name,
      ).toHaveLength(1);
    }
    expect(watched).toHaveLength(functionNames.length - jobs.length);
  });

  it('alarms when any function, jobs included, is throttled once in 5 minutes, each function in exactly one alarm', () => {
    const found = lambdaAlarms('throttles', 'Throttles');
    for (const a of found)
      expect(a).toMatchObject({
        Threshold: CONTRACT.lambdaThrottles,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    const watched = found.flatMap((a) => inputs(a).map(fnRef));
    for (const name of functionNames) {
      expect(
        watched.filter((w) => w === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: lambdaId(name) } }])),
        name,
      ).toHaveLength(1);
    }
    expect(watched).toHaveLength(functionNames.length);
  });

  it.each([
    ['table throttled requests', 'ThrottledRequests', CONTRACT.tableThrottles, 3, 2],
    ['table system errors', 'SystemErrors', CONTRACT.tableSystemErrors, 1, 1],
  ] as const)("alarms on the %s: the sum over the shop's operations >= %s", (title, metricName, threshold, periods, datapoints) => {
    const a = alarm(title);
    expect(a).toMatchObject({
      Threshold: threshold,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: periods,
      DatapointsToAlarm: datapoints,
      TreatMissingData: 'notBreaching',
    });
    const ms = inputs(a);
    expect(ms.map((m) => m['MetricStat']['Metric']['Dimensions'].find((d: Props) => d['Name'] === 'Operation')['Value'])).toEqual([...TABLE_OPERATIONS]);
    for (const m of ms) {
      expect(m['MetricStat']).toMatchObject({ Metric: { Namespace: 'AWS/DynamoDB', MetricName: metricName }, Period: 300, Stat: 'Sum' });
      expect(m['MetricStat']['Metric']['Dimensions']).toContainEqual({ Name: 'TableName', Value: { Ref: 'ShopTable' } });
    }
    expect((a['Metrics'] as Props[]).find((m) => m['Expression'])!['Expression']).toMatch(/^SUM\(\[/);
  });

  it('alarms on more than 30 app error reports a minute for 3 minutes', () => {
    expect(alarm('app error reports')).toMatchObject({
      Namespace: namespace,
      MetricName: 'AppErrorReports',
      Statistic: 'Sum',
      Period: 60,
      Threshold: CONTRACT.appErrorReportsPerMinute,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      TreatMissingData: 'notBreaching',
    });
    expect(alarm('app error reports')).not.toHaveProperty('Dimensions');
  });

  it.each([
    ['email outbox oldest age', 'OutboxOldestAge', CONTRACT.outboxOldestAgeSeconds],
    ['orders pending oldest age', 'OrdersPendingOldestAge', CONTRACT.ordersOldestAgeSeconds],
    ['orders to invoice oldest age', 'OrdersToInvoiceOldestAge', CONTRACT.ordersOldestAgeSeconds],
  ] as const)('alarms on the %s: Maximum over 5 minutes above %s s, and on no data (the job stopped)', (title, metricName, seconds) => {
    expect(alarm(title)).toMatchObject({
      Namespace: namespace,
      MetricName: metricName,
      Statistic: 'Maximum',
      Period: 300,
      Threshold: seconds,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'breaching',
    });
  });

  it.each(jobs)('alarms when the job %s fails 3 times in 5 minutes', (job) => {
    expect(alarm(`${job} errors`)).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: lambdaId(job) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: CONTRACT.jobErrors,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it('has no alarm the tests above do not name', () => {
    const titles = alarms.map((a) => String(a['AlarmName']).replace(`TradeShop-${stage} `, ''));
    const named = titles.filter(
      (x) =>
        groups.some((g) => x === `${g} 5xx rate` || x === `${g} p99 latency`) ||
        / Lambda (errors|throttles)( \d+)?$/.test(x) ||
        [
          'table throttled requests',
          'table system errors',
          'app error reports',
          'email outbox oldest age',
          'orders pending oldest age',
          'orders to invoice oldest age',
        ].includes(x) ||
        jobs.some((j) => x === `${j} errors`),
    );
    expect(named).toEqual(titles);
  });

  it('has the dashboard TradeShop-{stage} with every widget of the contract', () => {
    const boards = Object.values(resources(t, 'AWS::CloudWatch::Dashboard'));
    expect(boards).toHaveLength(1);
    expect(boards[0]!.Properties['DashboardName']).toBe(`TradeShop-${stage}`);
    const body = JSON.stringify(boards[0]!.Properties['DashboardBody']);
    for (const title of [...DASHBOARD_WIDGETS, ...groups.flatMap(groupWidgets)])
      expect(body, title).toContain(JSON.stringify(JSON.stringify(title)).slice(1, -1));
    for (const name of [
      'OrdersPlaced',
      'OrderValue',
      'OrdersRefused',
      'AppErrorReports',
      'OutboxOldestAge',
      'OrdersPendingOldestAge',
      'OrdersToInvoiceOldestAge',
      'StoreTimeouts',
      'StoreThrottles',
      '5xxErrorRate',
    ]) {
      expect(body, name).toContain(name);
    }
    for (const reason of REFUSAL_REASONS) expect(body, reason).toContain(reason);
    // CloudFront's metric is read from us-east-1.
    expect(body).toMatch(/AWS\/CloudFront.*us-east-1/);
  });
});

describe.each(STAGES)('the CloudFront alarm of %s (us-east-1)', (stage) => {
  const t = edgeAlarmsTemplate(stage);
  const topics = Object.keys(resources(t, 'AWS::SNS::Topic'));

  it('has its own topic with the operations address subscribed by email', () => {
    expect(topics).toHaveLength(1);
    t.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: alarmEmail, TopicArn: { Ref: topics[0] } });
  });

  it("alarms when the distribution's 5xx rate averages over 5% for 2 of 2 periods of 5 minutes", () => {
    const alarms = Object.values(resources(t, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties as Props);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      AlarmName: `TradeShop-${stage} CloudFront 5xx rate`,
      Namespace: 'AWS/CloudFront',
      MetricName: '5xxErrorRate',
      Statistic: 'Average',
      Period: 300,
      Threshold: CONTRACT.cdnFiveXxPercent,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topics[0] }],
      OKActions: [{ Ref: topics[0] }],
    });
    const dims = alarms[0]!['Dimensions'] as Props[];
    expect(dims).toContainEqual({ Name: 'Region', Value: 'Global' });
    // The distribution's id, read from the shop stack by CDK's cross-region reference.
    expect(JSON.stringify(dims.find((d) => d['Name'] === 'DistributionId'))).toMatch(/ExportsReader.*SiteDistribution/);
  });
});

describe('the endpoints file and the groups', () => {
  const withEndpoint = (change: Record<string, unknown>) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeshop-endpoints-'));
    const file = path.join(dir, 'endpoints.json');
    const [first, ...rest] = rawFile.endpoints;
    writeFileSync(file, JSON.stringify({ ...rawFile, endpoints: [{ ...first, ...change }, ...rest] }));
    return () => loadEndpoints(file);
  };

  it('refuses an endpoint without a group, or with one the contract does not list, naming it', () => {
    expect(withEndpoint({ group: undefined })).toThrow(/endpoints\[0\]: group must be one of catalogue, basket, orders, account, admin, errors, payments/);
    expect(withEndpoint({ group: 'checkout' })).toThrow(/group must be one of/);
    expect(withEndpoint({ group: 'basket' })).not.toThrow();
  });
});
