import {
  Duration,
  Stack,
  aws_cloudwatch as cw,
  aws_cloudwatch_actions as actions,
  aws_dynamodb as dynamodb,
  aws_lambda as lambda,
  aws_sns as sns,
  aws_sns_subscriptions as subscriptions,
  type StackProps,
} from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { Endpoint, EndpointGroup } from './endpoints';

/**
 * Every alarm's threshold, in one place so that the tests and docs/infrastructure.md
 * "Monitoring" quote the same numbers (the issue 34 contract).
 */
export const THRESHOLDS = {
  /** Percent of a group's requests answered 5xx in 5 minutes, counted from MIN_REQUESTS requests. */
  fiveXxPercent: 5,
  /** Below this many requests in 5 minutes a group's 5xx rate is not judged (one error in three requests is noise). */
  minRequests: 20,
  /** p99 latency of a group over 5 minutes, 3 periods running. */
  p99LatencyMs: 3000,
  /** The back office's reports and imports are slow by nature. */
  adminP99LatencyMs: 20000,
  /** Errors of one shop function in 5 minutes. */
  lambdaErrors: 5,
  /** Throttles of one function in 5 minutes: any throttle is a refused request. */
  lambdaThrottles: 1,
  /** Errors of a scheduled job (sweepOrders, sendEmails) in 5 minutes: it runs 5 times in them. */
  jobErrors: 3,
  /** The table's throttled requests in 5 minutes, 2 periods of 3. */
  tableThrottles: 1,
  /** The table's system errors (DynamoDB's 500s) in 5 minutes. */
  tableSystemErrors: 1,
  /** CloudFront's 5xx error rate, percent, over 5 minutes, 2 periods running. */
  cdnFiveXxPercent: 5,
  /** App error reports per minute, 3 minutes running. */
  appErrorReportsPerMinute: 30,
  /** Seconds the oldest email may wait in the outbox. */
  outboxOldestAgeSeconds: 900,
  /** Seconds the oldest pending order, or order waiting for its invoice, may wait. */
  ordersOldestAgeSeconds: 600,
} as const;

/** The most metrics CloudWatch lets one alarm's math expression read. */
export const MAX_METRICS_PER_ALARM = 10;

/** The DynamoDB operations the shop's code calls: the Operation dimensions of ThrottledRequests and SystemErrors (at most 10). */
export const TABLE_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
] as const;

/** The reasons of OrdersRefused (the contract's `reason` dimension). */
export const REFUSAL_REASONS = ['short_stock', 'coupon_used_up', 'minimum_order', 'basket_claimed', 'credit_limit', 'credit_hold', 'other'] as const;

/** The EMF namespace the stage's functions write their metrics to (functions/internal/metrics). */
export const metricsNamespace = (stage: string): string => `TradeShop/${stage}`;

/** Inputs of {@link AlarmTopic}. */
export interface AlarmTopicProps {
  /** Who hears about the alarms (shop.json operations.alarm_email). */
  readonly alarmEmail: string;
  /** Shown as the sender of the emails, e.g. "TradeShop staging alarms". */
  readonly displayName: string;
}

/**
 * An SNS topic for alarms with the operations address subscribed by email (AWS sends a
 * confirmation email first: nothing arrives until it is confirmed). Publishers must use
 * TLS. Not KMS-encrypted: CloudWatch alarms cannot publish to a topic under the AWS-managed
 * SNS key, and what they publish (alarm names, thresholds, metric values) is no secret.
 */
export class AlarmTopic extends Construct {
  public readonly topic: sns.Topic;
  /** The action every alarm takes, on ALARM and on OK. */
  public readonly action: cw.IAlarmAction;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(props.alarmEmail))
      throw new Error(`${this.node.path}: alarmEmail ${JSON.stringify(props.alarmEmail)} is not an email address`);
    this.topic = new sns.Topic(this, 'Topic', { displayName: props.displayName, enforceSSL: true });
    this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new actions.SnsAction(this.topic);
  }
}

/** One alarm as {@link ShopMonitoring} and {@link CdnAlarms} make them. */
interface AlarmSpec {
  /** What the alarm is about, e.g. "catalogue 5xx rate"; its name is "TradeShop-{stage} {title}". */
  readonly title: string;
  readonly metric: cw.IMetric;
  readonly threshold: number;
  readonly comparison: cw.ComparisonOperator;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm?: number;
  readonly missing: cw.TreatMissingData;
  /** Why it matters and where to look first (docs/operations.md has the rest). */
  readonly description: string;
}

/**
 * Makes one alarm that notifies action on ALARM and on OK. The alarm's name is set (not
 * generated) because it is what the operator reads in the email's subject and what
 * docs/operations.md lists; the stage in it keeps staging and production apart in one
 * account. Renaming an alarm replaces it, which loses nothing.
 */
function makeAlarm(scope: Construct, id: string, stage: string, action: cw.IAlarmAction, spec: AlarmSpec): cw.Alarm {
  const alarm = new cw.Alarm(scope, id, {
    alarmName: `TradeShop-${stage} ${spec.title}`,
    alarmDescription: spec.description,
    metric: spec.metric,
    threshold: spec.threshold,
    comparisonOperator: spec.comparison,
    evaluationPeriods: spec.evaluationPeriods,
    datapointsToAlarm: spec.datapointsToAlarm ?? spec.evaluationPeriods,
    treatMissingData: spec.missing,
  });
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}

/** A construct id from a title: "catalogue 5xx rate" → "Catalogue5xxRate". */
const idOf = (title: string): string =>
  title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

const FIVE_MINUTES = Duration.minutes(5);
const GREATER = cw.ComparisonOperator.GREATER_THAN_THRESHOLD;
const AT_LEAST = cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;

/** Inputs of {@link ShopMonitoring}. */
export interface ShopMonitoringProps {
  /** The stage: the metrics' namespace TradeShop/{stage}, the alarms' and dashboard's names. */
  readonly stage: string;
  /** Who the alarms email (shop.json operations.alarm_email). */
  readonly alarmEmail: string;
  /** The /api endpoints, each with its group. */
  readonly endpoints: readonly Endpoint[];
  /** Each endpoint's function, by endpoint name. */
  readonly apiFunctions: ReadonlyMap<string, lambda.IFunction>;
  /** The other functions that serve buyers (notFound), by name. */
  readonly siteFunctions: ReadonlyMap<string, lambda.IFunction>;
  /** The scheduled jobs, by name (sweepOrders, sendEmails). */
  readonly jobs: ReadonlyMap<string, lambda.IFunction>;
  readonly table: dynamodb.ITableV2;
  /** The distribution, for the dashboard's CloudFront graph (its alarm is in us-east-1: {@link CdnAlarms}). */
  readonly distributionId: string;
}

/**
 * The stage's alarms and dashboard in its own region: per endpoint group the 5xx rate and
 * p99 latency from the functions' EMF metrics; every function's errors and throttles; the
 * table's throttles and system errors; app error reports; the email outbox's and the
 * orders' oldest age; the jobs' failures. Every alarm emails the operations address
 * through one SNS topic, on ALARM and on OK. CloudFront's alarm cannot live here (its
 * metrics exist only in us-east-1): see {@link CdnAlarms}.
 */
export class ShopMonitoring extends Construct {
  public readonly alarmTopic: AlarmTopic;
  /** Every alarm, by title. */
  public readonly alarms: ReadonlyMap<string, cw.Alarm>;
  public readonly dashboard: cw.Dashboard;

  constructor(scope: Construct, id: string, props: ShopMonitoringProps) {
    super(scope, id);
    const { stage } = props;
    for (const e of props.endpoints) {
      if (!props.apiFunctions.has(e.name)) throw new Error(`${this.node.path}: no function for endpoint ${e.name}`);
    }
    this.alarmTopic = new AlarmTopic(this, 'Alarms', { alarmEmail: props.alarmEmail, displayName: `TradeShop ${stage} alarms` });
    const alarms = new Map<string, cw.Alarm>();
    const add = (spec: AlarmSpec) => {
      if (alarms.has(spec.title)) throw new Error(`${this.node.path}: two alarms are titled ${spec.title}`);
      alarms.set(spec.title, makeAlarm(this, idOf(spec.title), stage, this.alarmTopic.action, spec));
    };

    const namespace = metricsNamespace(stage);
    const shop = (metricName: string, statistic: string, dimensionsMap?: Record<string, string>, period: Duration = FIVE_MINUTES) =>
      new cw.Metric({ namespace, metricName, statistic, period, ...(dimensionsMap ? { dimensionsMap } : {}) });
    const groups = [...new Set(props.endpoints.map((e) => e.group))];

    // 1, 2: per endpoint group, from the request lines' EMF metrics.
    for (const group of groups) {
      add({
        title: `${group} 5xx rate`,
        metric: fiveXxRate(shop, group),
        threshold: THRESHOLDS.fiveXxPercent,
        comparison: GREATER,
        evaluationPeriods: 1,
        missing: cw.TreatMissingData.NOT_BREACHING,
        description: `More than ${THRESHOLDS.fiveXxPercent}% of the ${group} endpoints' requests answered 5xx in 5 minutes (judged from ${THRESHOLDS.minRequests} requests).`,
      });
      const p99 = group === 'admin' ? THRESHOLDS.adminP99LatencyMs : THRESHOLDS.p99LatencyMs;
      add({
        title: `${group} p99 latency`,
        metric: shop('Latency', 'p99', { group }),
        threshold: p99,
        comparison: GREATER,
        evaluationPeriods: 3,
        missing: cw.TreatMissingData.NOT_BREACHING,
        description: `The ${group} endpoints' p99 latency was over ${p99} ms for 15 minutes.`,
      });
    }

    // 3: every function's errors and throttles, as the largest of up to ten functions'
    // sums (one alarm reads at most ten metrics), grouped as the endpoints are.
    const units: [string, lambda.IFunction[]][] = [
      ...groups.map((g): [string, lambda.IFunction[]] => [g, props.endpoints.filter((e) => e.group === g).map((e) => props.apiFunctions.get(e.name)!)]),
      ['site', [...props.siteFunctions.values()]],
    ];
    const jobs: [string, lambda.IFunction[]] = ['jobs', [...props.jobs.values()]];
    for (const [unit, fns] of units) {
      chunks(fns).forEach((part, i, all) => {
        const title = `${unit} Lambda errors${all.length > 1 ? ` ${i + 1}` : ''}`;
        add({
          title,
          metric: largest(part, (fn) => fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES }), `${unit} errors (most of one function)`),
          threshold: THRESHOLDS.lambdaErrors,
          comparison: AT_LEAST,
          evaluationPeriods: 1,
          missing: cw.TreatMissingData.NOT_BREACHING,
          description: `A function of ${unit} failed ${THRESHOLDS.lambdaErrors} or more times in 5 minutes (crashes and timeouts, not 4xx/5xx answers): ${part.map((f) => f.node.id).join(', ')}.`,
        });
      });
    }
    for (const [unit, fns] of [...units, jobs]) {
      chunks(fns).forEach((part, i, all) => {
        add({
          title: `${unit} Lambda throttles${all.length > 1 ? ` ${i + 1}` : ''}`,
          metric: largest(part, (fn) => fn.metricThrottles({ statistic: 'Sum', period: FIVE_MINUTES }), `${unit} throttles (most of one function)`),
          threshold: THRESHOLDS.lambdaThrottles,
          comparison: AT_LEAST,
          evaluationPeriods: 1,
          missing: cw.TreatMissingData.NOT_BREACHING,
          description: `A function of ${unit} was throttled (the account's concurrency ran out): ${part.map((f) => f.node.id).join(', ')}.`,
        });
      });
    }

    // 4: the table.
    const tableMetric = (metricName: string, label: string) => tableSum(props.table, metricName, label);
    add({
      title: 'table throttled requests',
      metric: tableMetric('ThrottledRequests', 'throttled requests'),
      threshold: THRESHOLDS.tableThrottles,
      comparison: AT_LEAST,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      missing: cw.TreatMissingData.NOT_BREACHING,
      description: 'DynamoDB throttled requests to the shop table in 2 of the last 3 five-minute periods.',
    });
    add({
      title: 'table system errors',
      metric: tableMetric('SystemErrors', 'system errors'),
      threshold: THRESHOLDS.tableSystemErrors,
      comparison: AT_LEAST,
      evaluationPeriods: 1,
      missing: cw.TreatMissingData.NOT_BREACHING,
      description: 'DynamoDB answered requests to the shop table with its own errors (HTTP 500) in the last 5 minutes.',
    });

    // 6: app error reports (POST /api/errors), per minute.
    add({
      title: 'app error reports',
      metric: shop('AppErrorReports', 'Sum', undefined, Duration.minutes(1)),
      threshold: THRESHOLDS.appErrorReportsPerMinute,
      comparison: GREATER,
      evaluationPeriods: 3,
      missing: cw.TreatMissingData.NOT_BREACHING,
      description: `Buyers' pages reported more than ${THRESHOLDS.appErrorReportsPerMinute} errors a minute for 3 minutes (the Health page groups them).`,
    });

    // 7, 8: the backlogs. Their lines come every minute; none in 5 minutes means the job stopped.
    const backlog = (title: string, metricName: string, seconds: number, what: string) =>
      add({
        title,
        metric: shop(metricName, 'Maximum'),
        threshold: seconds,
        comparison: GREATER,
        evaluationPeriods: 1,
        missing: cw.TreatMissingData.BREACHING,
        description: `${what} has waited more than ${seconds / 60} minutes, or the job that reports it stopped reporting.`,
      });
    backlog('email outbox oldest age', 'OutboxOldestAge', THRESHOLDS.outboxOldestAgeSeconds, 'The oldest email in the outbox');
    backlog('orders pending oldest age', 'OrdersPendingOldestAge', THRESHOLDS.ordersOldestAgeSeconds, 'The oldest pending order');
    backlog('orders to invoice oldest age', 'OrdersToInvoiceOldestAge', THRESHOLDS.ordersOldestAgeSeconds, 'The oldest order waiting for its invoice');

    // 9: the jobs' failures.
    for (const [name, fn] of props.jobs) {
      add({
        title: `${name} errors`,
        metric: fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES }),
        threshold: THRESHOLDS.jobErrors,
        comparison: AT_LEAST,
        evaluationPeriods: 1,
        missing: cw.TreatMissingData.NOT_BREACHING,
        description: `The scheduled ${name} failed ${THRESHOLDS.jobErrors} or more of its runs in 5 minutes.`,
      });
    }
    this.alarms = alarms;

    this.dashboard = shopDashboard(this, {
      stage,
      shop,
      groups,
      functionErrors: units.flatMap(([unit, fns]) =>
        chunks(fns).map((part) => largest(part, (fn) => fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES }), `${unit} errors`)),
      ),
      functionThrottles: [...units, jobs].flatMap(([unit, fns]) =>
        chunks(fns).map((part) => largest(part, (fn) => fn.metricThrottles({ statistic: 'Sum', period: FIVE_MINUTES }), `${unit} throttles`)),
      ),
      tableThrottles: tableMetric('ThrottledRequests', 'table throttled requests'),
      tableSystemErrors: tableMetric('SystemErrors', 'table system errors'),
      distributionId: props.distributionId,
      alarms: [...alarms.values()],
    });
  }
}

type ShopMetric = (metricName: string, statistic: string, dimensionsMap?: Record<string, string>, period?: Duration) => cw.Metric;

/** 100 × 5xx ÷ requests of a group, or 0 while it has fewer than minRequests requests. */
function fiveXxRate(shop: ShopMetric, group: EndpointGroup): cw.MathExpression {
  return new cw.MathExpression({
    expression: `IF(requests >= ${THRESHOLDS.minRequests}, 100 * errors / requests, 0)`,
    usingMetrics: { requests: shop('Requests', 'Sum', { group }), errors: shop('Status5xx', 'Sum', { group }) },
    label: `${group} 5xx %`,
    period: FIVE_MINUTES,
  });
}

/** A metric math id (a lowercase letter, then letters, digits and _) from a name. */
const metricId = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^./, (c) => c.toLowerCase());

/** The functions in runs of at most {@link MAX_METRICS_PER_ALARM}. */
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += MAX_METRICS_PER_ALARM) out.push(items.slice(i, i + MAX_METRICS_PER_ALARM));
  return out;
}

/** The largest of the functions' metric at each period: an alarm on it fires when any one function crosses. */
function largest(fns: readonly lambda.IFunction[], metric: (fn: lambda.IFunction) => cw.IMetric, label: string): cw.MathExpression {
  if (fns.length === 0 || fns.length > MAX_METRICS_PER_ALARM) throw new Error(`largest: ${fns.length} functions (1 to ${MAX_METRICS_PER_ALARM})`);
  // Ids unique on a dashboard graph that shows several of these: the function's own name.
  const usingMetrics = Object.fromEntries(fns.map((fn) => [metricId(fn.node.id), metric(fn)]));
  return new cw.MathExpression({ expression: `MAX([${Object.keys(usingMetrics).join(', ')}])`, usingMetrics, label, period: FIVE_MINUTES });
}

/**
 * The sum of a table metric over the operations the shop uses (DynamoDB publishes
 * ThrottledRequests and SystemErrors per operation only). SUM of a list, not a + b, so a
 * period where some operations have no data still counts the others.
 */
function tableSum(table: dynamodb.ITableV2, metricName: string, label: string): cw.MathExpression {
  const usingMetrics = Object.fromEntries(
    TABLE_OPERATIONS.map((op) => [
      metricId(`${metricName}_${op}`),
      table.metric(metricName, { dimensionsMap: { TableName: table.tableName, Operation: op }, statistic: 'Sum', period: FIVE_MINUTES }),
    ]),
  );
  return new cw.MathExpression({ expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`, usingMetrics, label, period: FIVE_MINUTES });
}

/** The titles of the dashboard's widgets that do not depend on the groups, in order. */
export const DASHBOARD_WIDGETS = [
  'Alarms',
  'Orders placed',
  'Order value (pence, incl. VAT)',
  'Orders refused by reason',
  'App error reports',
  'Email outbox',
  'Orders pending and to invoice',
  'Lambda errors (most of one function)',
  'Lambda throttles (most of one function)',
  'Store timeouts and throttles',
  'DynamoDB throttles and system errors',
  'CloudFront 5xx rate (%)',
] as const;

/** The titles of a group's two widgets. */
export const groupWidgets = (group: string): string[] => [`${group}: requests, 4xx, 5xx`, `${group}: latency p50 / p99 (ms)`];

interface DashboardInputs {
  stage: string;
  shop: ShopMetric;
  groups: readonly EndpointGroup[];
  functionErrors: cw.IMetric[];
  functionThrottles: cw.IMetric[];
  tableThrottles: cw.IMetric;
  tableSystemErrors: cw.IMetric;
  distributionId: string;
  alarms: cw.IAlarm[];
}

/** The stage's dashboard, TradeShop-{stage}: money first, then errors and latency per group, then the backlogs and the plumbing. */
function shopDashboard(scope: Construct, d: DashboardInputs): cw.Dashboard {
  const [alarmsTitle, placed, value, refused, reports, outbox, orders, errors, throttles, store, table, cdn] = DASHBOARD_WIDGETS;
  const graph = (title: string, left: cw.IMetric[], right: cw.IMetric[] = [], width = 8) => new cw.GraphWidget({ title, left, right, width, height: 6 });
  const { shop } = d;
  const dashboard = new cw.Dashboard(scope, 'Dashboard', { dashboardName: `TradeShop-${d.stage}`, defaultInterval: Duration.hours(3) });
  dashboard.addWidgets(new cw.AlarmStatusWidget({ title: alarmsTitle, alarms: d.alarms, width: 24, height: 4 }));
  dashboard.addWidgets(
    graph(placed, [shop('OrdersPlaced', 'Sum')]),
    graph(value, [shop('OrderValue', 'Sum')]),
    graph(
      refused,
      REFUSAL_REASONS.map((reason) => shop('OrdersRefused', 'Sum', { reason }).with({ label: reason })),
    ),
  );
  for (const group of d.groups) {
    const [counts, latency] = groupWidgets(group);
    dashboard.addWidgets(
      graph(
        counts!,
        [shop('Requests', 'Sum', { group }).with({ label: 'requests' })],
        [shop('Status4xx', 'Sum', { group }).with({ label: '4xx' }), shop('Status5xx', 'Sum', { group }).with({ label: '5xx' })],
        12,
      ),
      graph(latency!, [shop('Latency', 'p50', { group }).with({ label: 'p50' }), shop('Latency', 'p99', { group }).with({ label: 'p99' })], [], 12),
    );
  }
  dashboard.addWidgets(
    graph(reports, [
      shop('AppErrorReports', 'Sum', undefined, Duration.minutes(1)).with({ label: 'recorded' }),
      shop('AppErrorReportsRefused', 'Sum', undefined, Duration.minutes(1)).with({ label: 'refused (rate limit)' }),
    ]),
    graph(
      outbox,
      [
        shop('OutboxWaiting', 'Maximum').with({ label: 'waiting' }),
        shop('OutboxFailed', 'Maximum').with({ label: 'failed' }),
        shop('EmailsSent', 'Sum').with({ label: 'sent' }),
        shop('EmailsFailed', 'Sum').with({ label: 'send failures' }),
      ],
      [shop('OutboxOldestAge', 'Maximum').with({ label: 'oldest (s)' })],
    ),
    graph(
      orders,
      [shop('OrdersPending', 'Maximum').with({ label: 'pending' }), shop('OrdersToInvoice', 'Maximum').with({ label: 'to invoice' })],
      [
        shop('OrdersPendingOldestAge', 'Maximum').with({ label: 'oldest pending (s)' }),
        shop('OrdersToInvoiceOldestAge', 'Maximum').with({ label: 'oldest to invoice (s)' }),
      ],
    ),
  );
  dashboard.addWidgets(graph(errors, d.functionErrors, [], 12), graph(throttles, d.functionThrottles, [], 12));
  dashboard.addWidgets(
    graph(store, [shop('StoreTimeouts', 'Sum').with({ label: 'timeouts' }), shop('StoreThrottles', 'Sum').with({ label: 'throttles' })]),
    graph(table, [d.tableThrottles, d.tableSystemErrors]),
    new cw.GraphWidget({
      title: cdn,
      // CloudFront publishes only in us-east-1; a dashboard can show another region's metric.
      left: [cdnFiveXxRate(d.distributionId).with({ region: 'us-east-1' })],
      width: 8,
      height: 6,
    }),
  );
  return dashboard;
}

/** CloudFront's 5xxErrorRate of a distribution (us-east-1, Region=Global), 5-minute average. */
export function cdnFiveXxRate(distributionId: string): cw.Metric {
  return new cw.Metric({
    namespace: 'AWS/CloudFront',
    metricName: '5xxErrorRate',
    dimensionsMap: { DistributionId: distributionId, Region: 'Global' },
    statistic: 'Average',
    period: FIVE_MINUTES,
  });
}

/** Inputs of {@link CdnAlarms}. */
export interface CdnAlarmsProps {
  readonly stage: string;
  readonly alarmEmail: string;
  readonly distributionId: string;
}

/**
 * CloudFront's 5xx rate alarm, with its own topic and email subscription: CloudFront's
 * metrics exist only in us-east-1 and an alarm can neither read another region's metric
 * nor notify another region's topic, so this lives in a us-east-1 stack.
 */
export class CdnAlarms extends Construct {
  public readonly alarmTopic: AlarmTopic;
  public readonly alarm: cw.Alarm;

  constructor(scope: Construct, id: string, props: CdnAlarmsProps) {
    super(scope, id);
    this.alarmTopic = new AlarmTopic(this, 'Alarms', { alarmEmail: props.alarmEmail, displayName: `TradeShop ${props.stage} alarms (CloudFront)` });
    this.alarm = makeAlarm(this, 'CloudFront5xxRate', props.stage, this.alarmTopic.action, {
      title: 'CloudFront 5xx rate',
      metric: cdnFiveXxRate(props.distributionId),
      threshold: THRESHOLDS.cdnFiveXxPercent,
      comparison: GREATER,
      evaluationPeriods: 2,
      missing: cw.TreatMissingData.NOT_BREACHING,
      description: `More than ${THRESHOLDS.cdnFiveXxPercent}% of all requests to the site (pages, media and /api) answered 5xx at CloudFront for 10 minutes.`,
    });
  }
}

/** Inputs of {@link EdgeAlarmsStack}. */
export interface EdgeAlarmsStackProps extends StackProps {
  readonly stage: string;
  readonly alarmEmail: string;
  /** The shop stack's distribution (a cross-region reference). */
  readonly distributionId: string;
}

/**
 * The stage's second us-east-1 stack: the CloudFront alarm. It cannot join the edge stack
 * (the web ACL), which the shop stack reads and so must be deployed before it, while this
 * one reads the shop stack's distribution and so must come after; `cdk deploy --all`
 * orders the three.
 */
export class EdgeAlarmsStack extends Stack {
  public readonly cdnAlarms: CdnAlarms;

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, props);
    if (this.region !== 'us-east-1') throw new Error(`${id}: CloudFront's metrics are only in us-east-1, not ${this.region}`);
    this.cdnAlarms = new CdnAlarms(this, 'Cdn', { stage: props.stage, alarmEmail: props.alarmEmail, distributionId: props.distributionId });
  }
}
