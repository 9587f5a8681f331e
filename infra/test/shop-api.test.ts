import { App, Stack, aws_dynamodb as dynamodb } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { loadEndpoints } from '../lib/endpoints';
import { STAGES, ShopStack } from '../lib/shop-stack';
import { ShopApi } from '../lib/shop-api';
import { fakeLambdaDir, functionNames, resources, stackTemplate, stageConfigs } from './fixtures';

const endpoints = loadEndpoints();
const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:TransactWriteItems'];

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

describe.each(STAGES)('ShopApi in the %s stack', (stage) => {
  const t = stackTemplate(stage);
  const fns = resources(t, 'AWS::Lambda::Function');
  const policies = resources(t, 'AWS::IAM::Policy');

  /** The logical id of the function serving endpoint `name` (its Description names it). */
  const fnId = (name: string) => {
    const ids = Object.keys(fns).filter((id) => String(fns[id]!.Properties['Description']).match(new RegExp(`^(/api endpoint ${name}:|CloudFront fallback)`)) && id.includes(name));
    expect(ids, name).toHaveLength(1);
    return ids[0]!;
  };
  /** Every IAM statement attached to the function's role. */
  const statementsOf = (name: string): Statement[] => {
    const role = fns[fnId(name)]!.Properties['Role']['Fn::GetAtt'][0];
    return Object.values(policies)
      .filter((p) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === role))
      .flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]);
  };

  it('has one Go function per endpoint, plus notFound, on provided.al2023 arm64', () => {
    expect(Object.keys(fns)).toHaveLength(functionNames.length);
    for (const fn of Object.values(fns)) {
      expect(fn.Properties).toMatchObject({ Runtime: 'provided.al2023', Architectures: ['arm64'], Handler: 'bootstrap' });
    }
  });

  it('routes exactly the endpoints\' routes, each to its own function', () => {
    const routes = resources(t, 'AWS::ApiGatewayV2::Route');
    const want = endpoints.flatMap((e) => e.routes.map((r) => `${r.method} ${r.path}`)).sort();
    expect(Object.values(routes).map((r) => r.Properties['RouteKey']).sort()).toEqual(want);
    const integrations = resources(t, 'AWS::ApiGatewayV2::Integration');
    for (const e of endpoints) {
      const integ = Object.values(integrations).filter((i) => JSON.stringify(i.Properties['IntegrationUri']).includes(fnId(e.name)));
      expect(integ, e.name).toHaveLength(1);
      expect(integ[0]!.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it.each(endpoints)('$name gets exactly the table rights "$table" names, and no Scan', (e) => {
    const table = statementsOf(e.name).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    const granted = table.flatMap(actionsOf).sort();
    expect(granted).toEqual([...e.tableActions].sort());
    if (e.table === 'none') expect(granted).toEqual([]);
    if (e.table !== 'readwrite') expect(granted.filter((a) => WRITES.includes(a))).toEqual([]);
  });

  it('lets no function scan the table or use wildcard DynamoDB rights', () => {
    const all = Object.values(policies).flatMap((p) => (p.Properties['PolicyDocument'].Statement as Statement[]).flatMap(actionsOf));
    expect(all.filter((a) => a === 'dynamodb:Scan' || a === 'dynamodb:*' || a === '*')).toEqual([]);
  });

  it('never gives a function FIREBASE_AUTH_EMULATOR_HOST', () => {
    for (const [id, fn] of Object.entries(fns)) {
      expect(Object.keys(fn.Properties['Environment']?.Variables ?? {}), id).not.toContain('FIREBASE_AUTH_EMULATOR_HOST');
    }
  });

  it('gives every endpoint its stage, Firebase project, table, site origin and the CSRF secret by reference', () => {
    for (const e of endpoints) {
      const vars = fns[fnId(e.name)]!.Properties['Environment'].Variables;
      expect(vars).toMatchObject({ STAGE: stage, FIREBASE_PROJECT_ID: stageConfigs[stage].firebaseProjectId, TABLE_NAME: { Ref: 'ShopTable' } });
      expect(JSON.stringify(vars['CSRF_SECRET'])).toMatch(/\{\{resolve:secretsmanager:/);
      expect(JSON.stringify(vars['SITE_ORIGIN'])).toContain('DomainName');
    }
  });

  it('throttles the API with the stage\'s limits', () => {
    const { rateLimit, burstLimit } = stageConfigs[stage].throttle;
    t.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit },
    });
    t.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
  });

  it('keeps function logs a month', () => {
    t.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it('outputs what the release needs', () => {
    for (const name of ['SiteBucketName', 'DistributionId', 'RouteRulesStoreArn', 'TableName', 'SiteUrl']) t.hasOutput(name, Match.anyValue());
  });
});

describe('ShopApi validation', () => {
  const table = (s: Stack) => new dynamodb.TableV2(s, 'T', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const make = (over: Partial<ConstructorParameters<typeof ShopApi>[2]>) => () => {
    const s = new Stack();
    new ShopApi(s, 'Api', {
      endpoints, table: table(s), codeDir: fakeLambdaDir(), environment: {}, throttle: { rateLimit: 10, burstLimit: 20 }, ...over,
    });
  };

  it('refuses the Auth emulator variable', () => {
    expect(make({ environment: { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' } })).toThrow(/never reach a deployed function/);
  });

  it('refuses missing throttling', () => {
    expect(make({ throttle: { rateLimit: 0, burstLimit: 0 } })).toThrow(/throttle/);
  });

  it('names the missing build when a bootstrap is absent', () => {
    expect(make({ codeDir: fakeLambdaDir(['search']) })).toThrow(/bootstrap is missing; build the functions first/);
  });

  it('refuses one route served by two endpoints', () => {
    const [first] = endpoints;
    expect(make({ endpoints: [first!, { ...first!, name: 'copy' }], codeDir: fakeLambdaDir([first!.name, 'copy']) })).toThrow(/served by two endpoints/);
  });

  it('builds a stack for every configured stage', () => {
    for (const stage of STAGES) {
      expect(() => Template.fromStack(new ShopStack(new App(), `V-${stage}`, { stage, config: stageConfigs[stage], lambdaDir: fakeLambdaDir() }))).not.toThrow();
    }
  });
});
