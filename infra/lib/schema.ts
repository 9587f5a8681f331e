import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Absolute path of functions/schema/table.json, the single source of the table's shape.
 * The Go functions embed the same file, so CDK and the local table cannot drift apart.
 * Resolved from this module's location, so it works from any working directory.
 */
export const TABLE_SCHEMA_PATH = path.resolve(__dirname, '..', '..', 'functions', 'schema', 'table.json');

/** DynamoDB scalar types a key attribute may have (the same set functions/schema accepts). */
export type KeyType = 'S' | 'N' | 'B';

/** Which attributes a GSI copies (the same set functions/schema accepts). */
export type Projection = 'ALL' | 'KEYS_ONLY';

/** One key attribute of the table or of an index: its name and scalar type. */
export interface KeySchema {
  readonly name: string;
  readonly type: KeyType;
}

/** One global secondary index as table.json declares it. */
export interface IndexSchema {
  readonly indexName: string;
  readonly partitionKey: KeySchema;
  readonly sortKey?: KeySchema;
  readonly projection: Projection;
}

/** The table's shape as table.json declares it; documentation-only fields (description, purpose) are dropped. */
export interface TableSchema {
  readonly partitionKey: KeySchema;
  readonly sortKey?: KeySchema;
  readonly timeToLiveAttribute?: string;
  readonly globalSecondaryIndexes: readonly IndexSchema[];
}

/** Reads and validates the table schema file, so a broken table.json fails synth with a clear message. */
export function loadTableSchema(file: string = TABLE_SCHEMA_PATH): TableSchema {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: cannot read the table schema: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return parseTableSchema(raw, file);
}

/** Checks the shape of already-parsed JSON and returns it typed; `source` names the input in error messages. */
export function parseTableSchema(raw: unknown, source = 'table schema'): TableSchema {
  const fail = (msg: string): never => {
    throw new Error(`${source}: ${msg}`);
  };
  const obj = (v: unknown, where: string): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(`${where} must be an object`);
  const str = (v: unknown, where: string): string => (typeof v === 'string' && v !== '' ? v : fail(`${where} must be a non-empty string`));
  const key = (v: unknown, where: string): KeySchema => {
    const k = obj(v, where);
    const type = k['type'];
    if (type !== 'S' && type !== 'N' && type !== 'B') return fail(`${where}.type must be S, N or B, got ${JSON.stringify(type)}`);
    return { name: str(k['name'], `${where}.name`), type };
  };
  const optionalKey = (v: unknown, where: string): KeySchema | undefined => (v === undefined ? undefined : key(v, where));

  const table = obj(raw, 'the schema');
  const indexes = table['globalSecondaryIndexes'] ?? [];
  if (!Array.isArray(indexes)) return fail('globalSecondaryIndexes must be an array');
  const ttl = table['timeToLiveAttribute'];

  return {
    partitionKey: key(table['partitionKey'], 'partitionKey'),
    sortKey: optionalKey(table['sortKey'], 'sortKey'),
    timeToLiveAttribute: ttl === undefined ? undefined : str(ttl, 'timeToLiveAttribute'),
    globalSecondaryIndexes: indexes.map((v: unknown, i): IndexSchema => {
      const where = `globalSecondaryIndexes[${i}]`;
      const ix = obj(v, where);
      const projection = ix['projection'];
      if (projection !== 'ALL' && projection !== 'KEYS_ONLY') {
        return fail(`${where}.projection must be ALL or KEYS_ONLY, got ${JSON.stringify(projection)}`);
      }
      return {
        indexName: str(ix['indexName'], `${where}.indexName`),
        partitionKey: key(ix['partitionKey'], `${where}.partitionKey`),
        sortKey: optionalKey(ix['sortKey'], `${where}.sortKey`),
        projection,
      };
    }),
  };
}
