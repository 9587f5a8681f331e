import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { TABLE_SCHEMA_PATH, loadTableSchema, parseTableSchema, type TableSchema } from '../lib/schema';
import { STAGES, addStage, parseStage } from '../lib/shop-stack';
import {
  alarmEmail,
  fakeLambdaDir,
  fakePublishSource,
  functionNames,
  inlinedTemplate,
  resources,
  stackTemplate,
  stageConfigs,
  tableStatements,
  type Statement,
} from './fixtures';
import { SHOP_TABLE_LOGICAL_ID, ShopTable } from '../lib/table';

// Expectations come straight from the JSON file, not through the loader under test,
// so editing functions/schema/table.json changes what these tests demand.
interface RawKey {
  name: string;
  type: string;
}
interface RawIndex {
  indexName: string;
  partitionKey: RawKey;
  sortKey?: RawKey;
  projection: string;
}
const raw = JSON.parse(readFileSync(TABLE_SCHEMA_PATH, 'utf8')) as {
  partitionKey: RawKey;
  sortKey?: RawKey;
  timeToLiveAttribute: string;
  globalSecondaryIndexes: RawIndex[];
};

const keySchema = (pk: RawKey, sk?: RawKey) => [{ AttributeName: pk.name, KeyType: 'HASH' }, ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' }] : [])];
const TABLE = 'AWS::DynamoDB::GlobalTable';

describe.each(STAGES)('ShopStack (%s)', (stage) => {
  const template = stackTemplate(stage);

  it('has exactly one table, under the pinned logical id, retained on delete', () => {
    template.resourceCountIs(TABLE, 1);
    expect(Object.keys(template.findResources(TABLE))).toEqual([SHOP_TABLE_LOGICAL_ID]);
    template.hasResource(TABLE, { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('lets CloudFormation generate the physical name and outputs it', () => {
    template.hasResourceProperties(TABLE, { TableName: Match.absent() });
    template.hasOutput('TableName', { Value: { Ref: SHOP_TABLE_LOGICAL_ID } });
  });

  it('uses the schema keys and TTL attribute, on demand', () => {
    template.hasResourceProperties(TABLE, {
      KeySchema: keySchema(raw.partitionKey, raw.sortKey),
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: raw.timeToLiveAttribute, Enabled: true },
    });
  });

  it('defines exactly the key attributes the schema names', () => {
    const defs = new Capture();
    template.hasResourceProperties(TABLE, { AttributeDefinitions: defs });
    const keys = [raw.partitionKey, raw.sortKey, ...raw.globalSecondaryIndexes.flatMap((ix) => [ix.partitionKey, ix.sortKey])];
    const want = new Map(keys.filter((k) => k !== undefined).map((k) => [k.name, k.type]));
    expect(defs.asArray()).toEqual(expect.arrayContaining([...want].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }))));
    expect(defs.asArray()).toHaveLength(want.size);
  });

  it('turns on point-in-time recovery and deletion protection', () => {
    template.hasResourceProperties(TABLE, {
      Replicas: [
        Match.objectLike({
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
          Tags: Match.arrayWith([{ Key: 'tradeshop:stage', Value: stage }]),
        }),
      ],
    });
  });

  it('has every GSI of the schema and no other', () => {
    const indexes = new Capture();
    template.hasResourceProperties(TABLE, { GlobalSecondaryIndexes: indexes });
    expect(raw.globalSecondaryIndexes.length).toBeGreaterThan(0);
    expect(
      indexes
        .asArray()
        .map((ix: { IndexName: string }) => ix.IndexName)
        .sort(),
    ).toEqual(raw.globalSecondaryIndexes.map((ix) => ix.indexName).sort());
  });

  it.each(raw.globalSecondaryIndexes)('GSI $indexName has the schema keys and projection', (ix) => {
    template.hasResourceProperties(TABLE, {
      GlobalSecondaryIndexes: Match.arrayWith([
        {
          IndexName: ix.indexName,
          KeySchema: keySchema(ix.partitionKey, ix.sortKey),
          Projection: { ProjectionType: ix.projection },
        },
      ]),
    });
  });
});

describe('validation', () => {
  const valid = loadTableSchema();
  const build = (schema: TableSchema) => () => new ShopTable(new Stack(), 'T', { schema });

  it('accepts the repository schema', () => {
    expect(build(valid)).not.toThrow();
  });

  it('rejects an index declared twice', () => {
    const [first] = valid.globalSecondaryIndexes;
    if (first === undefined) throw new Error('schema has no index');
    expect(build({ ...valid, globalSecondaryIndexes: [first, first] })).toThrow(/declared twice/);
  });

  it('rejects an attribute used with two types', () => {
    const ix = { indexName: 'byNumber', partitionKey: { name: valid.partitionKey.name, type: 'N' as const }, projection: 'ALL' as const };
    expect(build({ ...valid, globalSecondaryIndexes: [ix] })).toThrow(/used as both/);
  });

  it('rejects malformed JSON shapes with the offending field', () => {
    expect(() => parseTableSchema({ ...raw, partitionKey: { name: 'pk', type: 'X' } })).toThrow(/partitionKey\.type/);
    expect(() => parseTableSchema({ ...raw, globalSecondaryIndexes: [{ ...raw.globalSecondaryIndexes[0], projection: 'SOME' }] })).toThrow(
      /globalSecondaryIndexes\[0\]\.projection/,
    );
    expect(() => parseTableSchema([])).toThrow(/must be an object/);
  });

  it('accepts only the known stages', () => {
    expect(parseStage('production')).toBe('production');
    expect(() => parseStage('prod')).toThrow(/staging, production/);
    expect(() => parseStage(undefined)).toThrow();
  });
});

describe('a stage pointed at a restored table (cdk.json stages.{stage}.tableName), and back', () => {
  const RESTORED = 'TradeShop-production-restored-20261127';
  const { shop } = addStage(new App(), {
    stage: 'production',
    config: { ...stageConfigs.production, tableName: RESTORED },
    lambdaDir: fakeLambdaDir(),
    publishSource: fakePublishSource(),
    alarmEmail,
    idPrefix: 'R',
  });
  const t = inlinedTemplate(shop);
  const restoredArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':dynamodb:eu-west-2:', { Ref: 'AWS::AccountId' }, `:table/${RESTORED}`]] };

  it("keeps the stack's own table as it was (protected, backed up) and outputs the restored one's name", () => {
    t.resourceCountIs(TABLE, 1);
    expect(t.findResources(TABLE)[SHOP_TABLE_LOGICAL_ID]).toEqual(stackTemplate('production').findResources(TABLE)[SHOP_TABLE_LOGICAL_ID]);
    t.hasOutput('TableName', { Value: RESTORED });
  });

  it("grants nothing on the stack's own table while the restored one is in use", () => {
    expect(JSON.stringify(resources(t, 'AWS::IAM::Policy'))).not.toContain('"ShopTable"');
    expect(JSON.stringify(resources(t, 'AWS::Lambda::Function'))).not.toContain('{"Ref":"ShopTable"}');
  });

  it('gives every function the restored table by name', () => {
    const fns = Object.values(resources(t, 'AWS::Lambda::Function')).filter(
      (f) => f.Properties['Runtime'] === 'provided.al2023' && f.Properties['Environment']?.Variables?.['TABLE_NAME'],
    );
    expect(fns.length).toBe(functionNames.length - 1); // every one but notFound, which reads only S3
    for (const f of fns) expect(f.Properties['Environment'].Variables['TABLE_NAME']).toBe(RESTORED);
  });

  it("grants every function exactly its endpoints.json grants, on the restored table's ARN", () => {
    const own = tableStatements(
      Object.values(resources(stackTemplate('production'), 'AWS::IAM::Policy')).flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]),
    );
    const restored = tableStatements(Object.values(resources(t, 'AWS::IAM::Policy')).flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]));
    const swap = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll(JSON.stringify({ 'Fn::GetAtt': ['ShopTable', 'Arn'] }), JSON.stringify(restoredArn)));
    // The same ARN, however CloudFormation's joins nest: flattened to its parts.
    const flat = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(flat);
      if (typeof v !== 'object' || v === null) return v;
      const join = (v as Record<string, unknown>)['Fn::Join'] as [string, unknown[]] | undefined;
      if (join === undefined || join[0] !== '') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, flat(x)]));
      const parts: unknown[] = [];
      const push = (x: unknown) => (typeof x === 'string' && typeof parts.at(-1) === 'string' ? (parts[parts.length - 1] += x) : parts.push(x));
      for (const part of join[1].map(flat)) for (const x of (part as { join?: unknown[] })?.join ?? [part]) push(x);
      return { join: parts };
    };
    const sorted = (xs: unknown[]) => xs.map(flat).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(restored.length).toBeGreaterThan(0);
    expect(sorted(restored)).toEqual(sorted(swap(own)));
  });

  it("watches the restored table's throttles and system errors", () => {
    const alarms = Object.values(resources(t, 'AWS::CloudWatch::Alarm')).filter((a) =>
      /table (throttled requests|system errors)$/.test(a.Properties['AlarmName']),
    );
    expect(alarms).toHaveLength(2);
    for (const a of alarms) expect(JSON.stringify(a.Properties['Metrics'])).toContain(`{"Name":"TableName","Value":"${RESTORED}"}`);
  });

  it('refuses a name DynamoDB would refuse', () => {
    expect(() => new ShopTable(new Stack(), 'T', { schema: loadTableSchema(), existingTableName: 'no spaces' })).toThrow(/not a DynamoDB table name/);
  });
});
