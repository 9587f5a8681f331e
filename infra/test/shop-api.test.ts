import { App, Stack, aws_dynamodb as dynamodb, aws_secretsmanager as secretsmanager } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { loadEndpoints } from '../lib/endpoints';
import { STAGES, addStage } from '../lib/shop-stack';
import { ENDPOINT_VAR, ShopApi } from '../lib/shop-api';
import {
  actionsOf,
  alarmEmail,
  expectedStatements,
  fakeLambdaDir,
  fakePublishSource,
  functionNames,
  rawFile,
  resources,
  SECRET_READ_ACTIONS,
  secretRef,
  stackTemplate,
  stageConfigs,
  tableStatements,
  testBuild,
  type Statement,
} from './fixtures';

const endpoints = loadEndpoints();
const WRITES = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:ConditionCheckItem',
];
const READS = ['GetItem', 'BatchGetItem', 'Query'];

describe.each(STAGES)('ShopApi in the %s stack', (stage) => {
  const t = stackTemplate(stage);
  const fns = resources(t, 'AWS::Lambda::Function');
  const policies = resources(t, 'AWS::IAM::Policy');

  /** The logical id of the function serving endpoint `name` (its Description names it). */
  const fnId = (name: string) => {
    const ids = Object.keys(fns).filter(
      (id) => String(fns[id]!.Properties['Description']).match(new RegExp(`^(/api endpoint ${name}:|CloudFront fallback)`)) && id.includes(name),
    );
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
    // The two others are CDK's reader of the web ACL's cross-region reference and its
    // writer of the distribution's id for the CloudFront alarm in us-east-1.
    const others = Object.keys(fns).filter((id) => fns[id]!.Properties['Runtime'] !== 'provided.al2023');
    expect(others.sort()).toEqual([
      expect.stringMatching(/^CustomCrossRegionExportReaderCustomResourceProvider/),
      expect.stringMatching(/^CustomCrossRegionExportWriterCustomResourceProvider/),
    ]);
    const goFns = Object.entries(fns)
      .filter(([id]) => !others.includes(id))
      .map(([, fn]) => fn);
    expect(goFns).toHaveLength(functionNames.length);
    for (const fn of goFns) {
      expect(fn.Properties).toMatchObject({ Runtime: 'provided.al2023', Architectures: ['arm64'], Handler: 'bootstrap' });
    }
  });

  it("runs the one API binary in every endpoint's function, told its endpoint in API_ENDPOINT", () => {
    // One asset: CDK packages and uploads the binary once, whatever the number of endpoints.
    const code = new Set(endpoints.map((e) => JSON.stringify(fns[fnId(e.name)]!.Properties['Code'])));
    expect(code.size).toBe(1);
    for (const e of endpoints) expect(fns[fnId(e.name)]!.Properties['Environment'].Variables[ENDPOINT_VAR], e.name).toBe(e.name);
  });

  it("routes exactly the endpoints' routes, each to its own function", () => {
    const routes = resources(t, 'AWS::ApiGatewayV2::Route');
    const want = endpoints.flatMap((e) => e.routes.map((r) => `${r.method} ${r.path}`)).sort();
    expect(
      Object.values(routes)
        .map((r) => r.Properties['RouteKey'])
        .sort(),
    ).toEqual(want);
    const integrations = resources(t, 'AWS::ApiGatewayV2::Integration');
    for (const e of endpoints) {
      const integ = Object.values(integrations).filter((i) => JSON.stringify(i.Properties['IntegrationUri']).includes(fnId(e.name)));
      expect(integ, e.name).toHaveLength(1);
      expect(integ[0]!.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  // One assertion per endpoint, read straight from endpoints.json (not through the loader
  // the stack uses): its IAM statements on the table are exactly its grants.
  it.each(rawFile.endpoints)('$name gets exactly its endpoints.json table grants (actions, table or index, LeadingKeys prefixes)', (e) => {
    expect(tableStatements(statementsOf(e.name))).toEqual(expectedStatements(e.access));
  });

  it.each(rawFile.endpoints)('$name gets the CSRF secret only if it checks or issues tokens (csrfSecret), and the origin secret', (e) => {
    const vars = fns[fnId(e.name)]!.Properties['Environment'].Variables;
    if (e.csrfSecret) {
      expect(vars['CSRF_SECRET']).toEqual(secretRef('CsrfSecret'));
    } else {
      expect(vars).not.toHaveProperty('CSRF_SECRET');
    }
    expect(vars['ORIGIN_SECRET']).toEqual(secretRef('OriginSecret'));
    // Dynamic references need no runtime right to the secret: no function may read any,
    // but for the Stripe secret, read at cold start by the endpoints with stripeSecret.
    expect(
      statementsOf(e.name)
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('secretsmanager:'))
        .sort(),
    ).toEqual(e.stripeSecret ? SECRET_READ_ACTIONS : []);
    if (e.stripeSecret) expect(vars['STRIPE_SECRET_ARN'], e.name).toBeDefined();
    else expect(vars, e.name).not.toHaveProperty('STRIPE_SECRET_ARN');
  });

  it.each(rawFile.endpoints)('$name has its endpoints.json timeout (10 s unless it says)', (e) => {
    expect(fns[fnId(e.name)]!.Properties['Timeout']).toBe(e.timeoutSeconds ?? 10);
  });

  it('lets only the mediaBucket endpoints publish pictures: put and get media/products/*, list the bucket, MEDIA_BUCKET', () => {
    const withMedia = rawFile.endpoints.filter((e) => e.mediaBucket).map((e) => e.name);
    expect(withMedia).toEqual(['adminCatalogueImages']);
    const mediaArn = { 'Fn::GetAtt': ['MediaBucket', 'Arn'] };
    for (const e of rawFile.endpoints) {
      const s3 = statementsOf(e.name).filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')));
      const vars = fns[fnId(e.name)]!.Properties['Environment'].Variables;
      if (!e.mediaBucket) {
        expect(s3, e.name).toEqual([]);
        expect(vars, e.name).not.toHaveProperty('MEDIA_BUCKET');
        continue;
      }
      expect(vars['MEDIA_BUCKET']).toEqual({ Ref: 'MediaBucket' });
      const shown = s3.map((st) => ({ actions: actionsOf(st).sort(), resource: st.Resource, condition: st.Condition ?? null }));
      expect(shown).toHaveLength(2);
      expect(shown).toContainEqual({
        actions: ['s3:GetObject', 's3:PutObject'],
        resource: { 'Fn::Join': ['', [mediaArn, '/media/products/*']] },
        condition: null,
      });
      expect(shown).toContainEqual({ actions: ['s3:ListBucket'], resource: mediaArn, condition: null });
    }
  });

  it('gives the CSRF secret to the token endpoints and no others', () => {
    const withSecret = Object.entries(fns)
      .filter(([, fn]) => 'CSRF_SECRET' in (fn.Properties['Environment']?.Variables ?? {}))
      .map(([id]) => id)
      .sort();
    expect(withSecret).toEqual(
      rawFile.endpoints
        .filter((e) => e.csrfSecret)
        .map((e) => fnId(e.name))
        .sort(),
    );
    expect(rawFile.endpoints.filter((e) => !e.csrfSecret).length).toBeGreaterThan(0);
  });

  it('grants no write action to an endpoint that only reads', () => {
    for (const e of rawFile.endpoints.filter((x) => x.access.every((g) => g.actions.every((a) => READS.includes(a))))) {
      expect(
        statementsOf(e.name)
          .flatMap(actionsOf)
          .filter((a) => WRITES.includes(a)),
        e.name,
      ).toEqual([]);
    }
  });

  it('lets no function scan the table or use wildcard DynamoDB rights', () => {
    const all = Object.values(policies).flatMap((p) => (p.Properties['PolicyDocument'].Statement as Statement[]).flatMap(actionsOf));
    expect(all.filter((a) => a === 'dynamodb:Scan' || a === 'dynamodb:*' || a === '*')).toEqual([]);
  });

  it('gives every function of the stack (endpoints, notFound, the jobs) the build its log lines carry', () => {
    const fnEnvs = Object.entries(fns).filter(([, fn]) => fn.Properties['Environment'] !== undefined && fn.Properties['Handler'] === 'bootstrap');
    expect(fnEnvs.length).toBeGreaterThan(endpoints.length);
    for (const [id, fn] of fnEnvs) expect(fn.Properties['Environment'].Variables['BUILD_ID'], id).toBe(testBuild);
  });

  it('never gives a function FIREBASE_AUTH_EMULATOR_HOST', () => {
    for (const [id, fn] of Object.entries(fns)) {
      expect(Object.keys(fn.Properties['Environment']?.Variables ?? {}), id).not.toContain('FIREBASE_AUTH_EMULATOR_HOST');
    }
  });

  it('gives every endpoint its stage, Firebase project, table and site origin', () => {
    for (const e of endpoints) {
      const vars = fns[fnId(e.name)]!.Properties['Environment'].Variables;
      expect(vars).toMatchObject({ STAGE: stage, FIREBASE_PROJECT_ID: stageConfigs[stage].firebaseProjectId, TABLE_NAME: { Ref: 'ShopTable' } });
      expect(JSON.stringify(vars['SITE_ORIGIN'])).toContain('DomainName');
    }
  });

  it("throttles the API with the stage's limits", () => {
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
      endpoints,
      table: table(s),
      codeDir: fakeLambdaDir(),
      environment: {},
      throttle: { rateLimit: 10, burstLimit: 20 },
      csrfSecret: new secretsmanager.Secret(s, 'C'),
      originSecret: new secretsmanager.Secret(s, 'O'),
      stripeSecret: new secretsmanager.Secret(s, 'S'),
      ...over,
    });
  };

  it('refuses the Auth emulator variable', () => {
    expect(make({ environment: { FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' } })).toThrow(/never reach a deployed function/);
  });

  it('refuses a secret, or an endpoint name, passed to every function', () => {
    expect(make({ environment: { CSRF_SECRET: 'x'.repeat(40) } })).toThrow(/added per function from its secret/);
    expect(make({ environment: { ORIGIN_SECRET: 'x'.repeat(40) } })).toThrow(/added per function from its secret/);
    expect(make({ environment: { [ENDPOINT_VAR]: 'search' } })).toThrow(/set per function to its endpoint/);
  });

  it('refuses missing throttling', () => {
    expect(make({ throttle: { rateLimit: 0, burstLimit: 0 } })).toThrow(/throttle/);
  });

  it('names the missing build when a bootstrap is absent', () => {
    expect(make({ codeDir: fakeLambdaDir(['notFound']) })).toThrow(/bootstrap is missing; build the functions first/);
  });

  it('refuses one route served by two endpoints', () => {
    const [first] = endpoints;
    expect(make({ endpoints: [first!, { ...first!, name: 'copy' }], codeDir: fakeLambdaDir() })).toThrow(/served by two endpoints/);
  });

  it('builds a stack for every configured stage', () => {
    for (const stage of STAGES) {
      const { shop, edge } = addStage(new App(), {
        stage,
        config: stageConfigs[stage],
        lambdaDir: fakeLambdaDir(),
        publishSource: fakePublishSource(),
        alarmEmail,
        idPrefix: 'V',
      });
      expect(() => [Template.fromStack(edge), Template.fromStack(shop)]).not.toThrow();
    }
  });
});
