import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Absolute path of functions/internal/api/endpoints.json: the /api surface the cloud
 * deploys (one Lambda per endpoint). A Go test keeps it equal to the routes the Go code serves.
 */
export const ENDPOINTS_PATH = path.resolve(__dirname, '..', '..', 'functions', 'internal', 'api', 'endpoints.json');

/** The table rights an endpoint's function gets: nothing, reads, or reads and writes. */
export type TableAccess = 'none' | 'read' | 'readwrite';

/** HTTP methods the API routes use. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One route of an endpoint, e.g. POST /api/basket/add. */
export interface Route {
  readonly method: RouteMethod;
  readonly path: string;
}

/** One /api endpoint: its function's name, routes, table rights and memory. */
export interface Endpoint {
  readonly name: string;
  readonly routes: readonly Route[];
  readonly table: TableAccess;
  /** The IAM actions of its table level (tableLevels in the file), e.g. dynamodb:GetItem. */
  readonly tableActions: readonly string[];
  readonly memoryMB: number;
}

const METHODS: readonly RouteMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ACCESS: readonly TableAccess[] = ['none', 'read', 'readwrite'];

/** Reads and validates endpoints.json; a broken file fails synth naming the entry. */
export function loadEndpoints(file: string = ENDPOINTS_PATH): Endpoint[] {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { endpoints?: unknown; tableLevels?: Record<string, unknown> };
  if (!Array.isArray(doc.endpoints) || doc.endpoints.length === 0) throw new Error(`${file}: endpoints must be a non-empty list`);
  const levels = new Map(ACCESS.map((level): [TableAccess, string[]] => {
    const ops = doc.tableLevels?.[level];
    if (!Array.isArray(ops) || !ops.every((op) => typeof op === 'string' && /^[A-Z][A-Za-z]+$/.test(op))) {
      throw new Error(`${file}: tableLevels.${level} must be a list of DynamoDB operation names`);
    }
    return [level, ops.map((op) => `dynamodb:${op}`)];
  }));
  const names = new Set<string>();
  return doc.endpoints.map((raw: Record<string, unknown>, i: number): Endpoint => {
    const fail = (msg: string): never => {
      throw new Error(`${file}: endpoints[${i}]: ${msg}`);
    };
    const name = typeof raw['name'] === 'string' && /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(raw['name']) ? raw['name'] : fail('name must be a short alphanumeric name');
    if (names.has(name)) fail(`${name} is listed twice`);
    names.add(name);
    const table = ACCESS.find((a) => a === raw['table']) ?? fail(`table must be one of ${ACCESS.join(', ')}`);
    const memoryMB = raw['memoryMB'] === undefined ? 256 : Number(raw['memoryMB']);
    if (!Number.isInteger(memoryMB) || memoryMB < 128 || memoryMB > 10240) fail('memoryMB must be an integer from 128 to 10240');
    const routes = Array.isArray(raw['routes']) && raw['routes'].length > 0 ? (raw['routes'] as unknown[]) : fail('routes must be a non-empty list');
    return {
      name,
      table,
      tableActions: levels.get(table)!,
      memoryMB,
      routes: routes.map((r): Route => {
        const m = typeof r === 'string' ? /^([A-Z]+) (\/api\/\S+)$/.exec(r) : null;
        const method = METHODS.find((x) => x === m?.[1]);
        if (!m || !method) return fail(`route ${JSON.stringify(r)} must be "METHOD /api/path"`);
        return { method, path: m[2]! };
      }),
    };
  });
}
