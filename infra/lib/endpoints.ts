import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Absolute path of functions/internal/api/endpoints.json: the /api surface the cloud
 * deploys (one Lambda per endpoint), each endpoint's table grants and whether it gets the
 * CSRF secret, and the scheduled jobs' grants. It is generated from the Go code's routes
 * and their deploy facts (functions/internal/api/routes.go, `go generate ./internal/api/`),
 * and Go tests check against DynamoDB Local that every access is within its grants.
 */
export const ENDPOINTS_PATH = path.resolve(__dirname, '..', '..', 'functions', 'internal', 'api', 'endpoints.json');

/** HTTP methods the API routes use. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One route of an endpoint, e.g. POST /api/basket/add. */
export interface Route {
  readonly method: RouteMethod;
  readonly path: string;
}

/**
 * One IAM statement on the table. With `keys`: `actions` on the table's items whose
 * partition key matches one of the patterns (`ForAllValues:StringLike` on
 * `dynamodb:LeadingKeys`). With `index`: a Query of that index (catalogue reads).
 */
export interface TableGrant {
  /** IAM actions, e.g. dynamodb:GetItem. */
  readonly actions: readonly string[];
  /** Partition-key patterns (IAM StringLike), e.g. USER#*; empty for an index grant. */
  readonly keys: readonly string[];
  /** The index a Query grant is for, e.g. gsi2. */
  readonly index?: string;
}

/** A deployed function's rights: its table grants and which secrets it gets. */
export interface FunctionRights {
  readonly name: string;
  readonly access: readonly TableGrant[];
  /** Gets CSRF_SECRET: only the endpoints that check or issue CSRF tokens. */
  readonly csrfSecret: boolean;
  /**
   * May read the stage's Stripe secret (STRIPE_SECRET_ARN, read at cold start): only the
   * functions that call Stripe or check its webhook signatures. Default false.
   */
  readonly stripeSecret: boolean;
}

/**
 * The endpoint groups of endpoints.json's `group` field: what the dashboard and the
 * per-group alarms (5xx rate, p99 latency) count requests by.
 */
export const ENDPOINT_GROUPS = ['catalogue', 'basket', 'orders', 'account', 'admin', 'errors', 'payments'] as const;

/** One of {@link ENDPOINT_GROUPS}. */
export type EndpointGroup = (typeof ENDPOINT_GROUPS)[number];

/** One /api endpoint: its function's name, group, routes, rights, memory and timeout. */
export interface Endpoint extends FunctionRights {
  /** Which group its metrics are counted in (the `group` dimension of its EMF lines). */
  readonly group: EndpointGroup;
  readonly routes: readonly Route[];
  readonly memoryMB: number;
  /** Seconds before the function is stopped (default 10; at most 29, under API Gateway's 30 s). */
  readonly timeoutSeconds: number;
  /**
   * The function publishes product pictures to the media bucket: s3:PutObject and
   * s3:GetObject on `media/products/*`, s3:ListBucket on the bucket (so a picture not
   * there yet is a 404, not a 403) and MEDIA_BUCKET in its environment.
   */
  readonly mediaBucket: boolean;
  /**
   * The function publishes the catalogue through the stage's CodeBuild publish project
   * (the back office's "Publish catalogue"): codebuild:StartBuild, ListBuildsForProject
   * and BatchGetBuilds on that project, logs:GetLogEvents on its log group, and
   * PUBLISH_PROJECT in its environment (lib/publish-build.ts).
   */
  readonly publishBuild: boolean;
}

/** The media bucket's objects a mediaBucket function may write and read. */
export const MEDIA_PRODUCTS_PREFIX = 'media/products/';

const METHODS: readonly RouteMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** The DynamoDB actions a grant may name (a transaction's items are checked as these). */
export const GRANT_ACTIONS = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem'] as const;
const KEY_PATTERN = /^[A-Z]+(#[A-Z]+)*(#\*)?$/;

interface RawFile {
  endpoints?: unknown;
  jobs?: unknown;
}

function read(file: string): RawFile {
  return JSON.parse(readFileSync(file, 'utf8')) as RawFile;
}

function rights(raw: Record<string, unknown>, fail: (msg: string) => never): FunctionRights {
  const name =
    typeof raw['name'] === 'string' && /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(raw['name']) ? raw['name'] : fail('name must be a short alphanumeric name');
  if (typeof raw['csrfSecret'] !== 'boolean') fail(`${name}: csrfSecret must be true or false`);
  const list = Array.isArray(raw['access']) ? (raw['access'] as Record<string, unknown>[]) : fail(`${name}: access must be a list of grants`);
  const access = list.map((g, j): TableGrant => {
    const where = `${name} access[${j}]`;
    const actions = Array.isArray(g['actions']) && g['actions'].length > 0 ? (g['actions'] as unknown[]) : fail(`${where}: actions must be a non-empty list`);
    for (const a of actions) {
      if (!GRANT_ACTIONS.includes(a as (typeof GRANT_ACTIONS)[number])) fail(`${where}: action ${JSON.stringify(a)} is not one of ${GRANT_ACTIONS.join(', ')}`);
    }
    const keys = (g['keys'] ?? []) as unknown[];
    const index = g['index'];
    if (index !== undefined) {
      if (typeof index !== 'string' || !/^[a-z][a-z0-9]*$/.test(index)) fail(`${where}: index must be an index name`);
      if (keys.length > 0 || actions.join() !== 'Query') fail(`${where}: an index grant is a Query, with no keys`);
    } else if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string' && KEY_PATTERN.test(k))) {
      fail(`${where}: a table grant needs keys, each a fixed prefix such as USER#* or PENDING`);
    }
    return { actions: actions.map((a) => `dynamodb:${String(a)}`), keys: keys as string[], ...(index === undefined ? {} : { index: index as string }) };
  });
  const stripeSecret = raw['stripeSecret'] ?? false;
  if (typeof stripeSecret !== 'boolean') fail(`${name}: stripeSecret must be true or false`);
  return { name, access, csrfSecret: raw['csrfSecret'] as boolean, stripeSecret: stripeSecret as boolean };
}

/** Reads and validates the endpoints of endpoints.json; a broken file fails synth naming the entry. */
export function loadEndpoints(file: string = ENDPOINTS_PATH): Endpoint[] {
  const doc = read(file);
  if (!Array.isArray(doc.endpoints) || doc.endpoints.length === 0) throw new Error(`${file}: endpoints must be a non-empty list`);
  const names = new Set<string>();
  return doc.endpoints.map((raw: Record<string, unknown>, i: number): Endpoint => {
    const fail = (msg: string): never => {
      throw new Error(`${file}: endpoints[${i}]: ${msg}`);
    };
    const r = rights(raw, fail);
    if (names.has(r.name)) fail(`${r.name} is listed twice`);
    names.add(r.name);
    const memoryMB = raw['memoryMB'] === undefined ? 256 : Number(raw['memoryMB']);
    if (!Number.isInteger(memoryMB) || memoryMB < 128 || memoryMB > 10240) fail('memoryMB must be an integer from 128 to 10240');
    const timeoutSeconds = raw['timeoutSeconds'] === undefined ? 10 : Number(raw['timeoutSeconds']);
    if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 29)
      fail('timeoutSeconds must be an integer from 1 to 29 (API Gateway gives up at 30 s)');
    const group = ENDPOINT_GROUPS.find((g) => g === raw['group']) ?? fail(`group must be one of ${ENDPOINT_GROUPS.join(', ')}`);
    const mediaBucket = raw['mediaBucket'] ?? false;
    if (typeof mediaBucket !== 'boolean') fail('mediaBucket must be true or false');
    const publishBuild = raw['publishBuild'] ?? false;
    if (typeof publishBuild !== 'boolean') fail('publishBuild must be true or false');
    const routes = Array.isArray(raw['routes']) && raw['routes'].length > 0 ? (raw['routes'] as unknown[]) : fail('routes must be a non-empty list');
    return {
      ...r,
      group,
      memoryMB,
      timeoutSeconds,
      mediaBucket: mediaBucket as boolean,
      publishBuild: publishBuild as boolean,
      routes: routes.map((route): Route => {
        const m = typeof route === 'string' ? /^([A-Z]+) (\/api\/\S+)$/.exec(route) : null;
        const method = METHODS.find((x) => x === m?.[1]);
        if (!m || !method) return fail(`route ${JSON.stringify(route)} must be "METHOD /api/path"`);
        return { method, path: m[2]! };
      }),
    };
  });
}

/** The rights of the scheduled job `name` (endpoints.json "jobs"), e.g. sweepOrders. */
export function loadJob(name: string, file: string = ENDPOINTS_PATH): FunctionRights {
  const doc = read(file);
  const jobs = Array.isArray(doc.jobs) ? (doc.jobs as Record<string, unknown>[]) : [];
  const i = jobs.findIndex((j) => j['name'] === name);
  if (i < 0) throw new Error(`${file}: jobs has no ${name}`);
  return rights(jobs[i]!, (msg) => {
    throw new Error(`${file}: jobs[${i}]: ${msg}`);
  });
}

/** The rights of every scheduled job (endpoints.json "jobs"), in the file's order. */
export function loadJobs(file: string = ENDPOINTS_PATH): FunctionRights[] {
  const doc = read(file);
  const jobs = Array.isArray(doc.jobs) ? (doc.jobs as Record<string, unknown>[]) : [];
  return jobs.map((j) => loadJob(String(j['name']), file));
}
