import { existsSync } from 'node:fs';
import * as path from 'node:path';
import {
  CfnResource,
  Duration,
  Fn,
  Names,
  NestedStack,
  Stack,
  Validations,
  aws_apigatewayv2 as apigw,
  aws_dynamodb as dynamodb,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_logs as logs,
  aws_s3 as s3,
  aws_secretsmanager as secretsmanager,
} from 'aws-cdk-lib';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { ENDPOINT_GROUPS, MEDIA_PRODUCTS_PREFIX, type Endpoint, type EndpointGroup, type TableGrant } from './endpoints';

/** Requests per second the API accepts before answering 429. */
export interface ApiThrottle {
  /** Steady-state requests per second. */
  readonly rateLimit: number;
  /** Requests allowed in one burst above the rate. */
  readonly burstLimit: number;
}

/** Inputs of {@link ShopApi}. */
export interface ShopApiProps {
  /** The /api surface, normally `loadEndpoints()` (functions/internal/api/endpoints.json). */
  readonly endpoints: readonly Endpoint[];
  /** The shop table; each function gets only its endpoint's `access` grants on it. */
  readonly table: dynamodb.ITableV2;
  /**
   * Folder of the built binaries, as scripts/build-lambdas.mjs writes it: every endpoint's
   * function runs `{codeDir}/api/bootstrap` (functions/cmd/api), told its endpoint in
   * API_ENDPOINT.
   */
  readonly codeDir: string;
  /**
   * Environment every function gets (TABLE_NAME, ORIGIN_SECRET and, where the endpoint
   * has csrfSecret, CSRF_SECRET are added here). Must not name the Auth emulator or
   * either secret.
   */
  readonly environment: Readonly<Record<string, string>>;
  /** Signs CSRF tokens: given (as a dynamic reference) only to endpoints with csrfSecret. */
  readonly csrfSecret: secretsmanager.ISecret;
  /** The header value CloudFront adds to API requests (X-Origin-Verify); every function checks it. */
  readonly originSecret: secretsmanager.ISecret;
  /**
   * The stage's Stripe keys, JSON {"secret_key","webhook_secret"}: read at cold start
   * (STRIPE_SECRET_ARN) by the endpoints with stripeSecret and no others. Required when
   * an endpoint has stripeSecret.
   */
  readonly stripeSecret?: secretsmanager.ISecret;
  /** API-wide throttling of the default stage. */
  readonly throttle: ApiThrottle;
}

/**
 * Why the API's routes have no API Gateway authorizer (cdk-nag AwsSolutions-APIG4),
 * acknowledged on the API and on each route, wherever its nested stack is.
 */
const NO_API_AUTHORIZER = {
  id: 'AwsSolutions-APIG4',
  reason:
    "The catalogue, sign-in and POST /api/errors are public by design; every function checks the Firebase ID token (and staff claim) itself where the route needs one, and refuses any request without CloudFront's origin secret, so the API is reachable only through the distribution.",
};

/** The binary every endpoint's function runs (functions/cmd/api; scripts/build-lambdas.mjs). */
export const API_BINARY = 'api';

/** The environment variable that names a function's endpoint (functions/internal/lambdarun). */
export const ENDPOINT_VAR = 'API_ENDPOINT';

/**
 * The shop's HTTP API: one Go Lambda per endpoint (provided.al2023, arm64, all running the
 * one API binary built with -tags lambda.norpc, told their endpoint in API_ENDPOINT), each with only the table actions and partition-key
 * prefixes its endpoint uses and the CSRF secret only where it checks or issues tokens,
 * behind an HTTP API whose routes are exactly the endpoints' routes, throttled; every
 * function refuses a request without CloudFront's origin secret.
 *
 * The API and its stage are made here, in the caller's stack; each route group's endpoints
 * (function, role, policy, log group, integration, routes, permissions) are made in that
 * group's nested stack ({@link ApiGroupStack}), so the parent stack stays under
 * CloudFormation's 500 resources however many endpoints there are. The API, the table and
 * the secrets reach the nested stacks as parameters (CDK adds them for the references).
 */
export class ShopApi extends Construct {
  /** The HTTP API; CloudFront sends /api/* to it. */
  public readonly httpApi: apigw.HttpApi;
  /** The API's host name (no scheme), for CloudFront's origin. */
  public readonly domainName: string;
  /** Each endpoint's function, by endpoint name. */
  public readonly functions: ReadonlyMap<string, lambda.Function>;
  /** The endpoints it serves, as given. */
  public readonly endpoints: readonly Endpoint[];
  /** The nested stack of each route group that has endpoints, by group. */
  public readonly groupStacks: ReadonlyMap<EndpointGroup, ApiGroupStack>;

  constructor(scope: Construct, id: string, props: ShopApiProps) {
    super(scope, id);
    validate(props, this.node.path);

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Wholesale trade shop /api endpoints (reached through CloudFront)',
      createDefaultStage: false,
    });
    const stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
    });
    Validations.of(stage).acknowledge({
      id: 'AwsSolutions-APIG1',
      reason:
        "Every function writes one request line per request to CloudWatch Logs (request id, endpoint, status, latency: functions/internal/api/middleware.go); an access log would repeat it. API Gateway's own refusals (throttling) show in its metrics.",
    });
    Validations.of(this.httpApi).acknowledge(NO_API_AUTHORIZER);
    this.domainName = Fn.select(2, Fn.split('/', this.httpApi.apiEndpoint));

    const functions = new Map<string, lambda.Function>();
    const groupStacks = new Map<EndpointGroup, ApiGroupStack>();
    for (const group of ENDPOINT_GROUPS) {
      const endpoints = props.endpoints.filter((e) => e.group === group);
      if (endpoints.length === 0) continue;
      const nested = new ApiGroupStack(this, `${group[0]!.toUpperCase()}${group.slice(1)}Endpoints`, { ...props, group, endpoints, httpApi: this.httpApi });
      groupStacks.set(group, nested);
      for (const [name, fn] of nested.functions) functions.set(name, fn);
    }
    this.functions = functions;
    this.endpoints = props.endpoints;
    this.groupStacks = groupStacks;
  }
}

/** Inputs of {@link ApiGroupStack}: the API's inputs, narrowed to one group, and the API. */
export interface ApiGroupStackProps extends ShopApiProps {
  /** The route group these endpoints are counted in (endpoints.json `group`). */
  readonly group: EndpointGroup;
  /** The group's endpoints (all of them of `group`). */
  readonly endpoints: readonly Endpoint[];
  /** The API (in the parent stack) the group's routes are added to. */
  readonly httpApi: apigw.IHttpApi;
}

/**
 * One route group's endpoints in a nested stack: per endpoint its function (with role,
 * policy and log group), its table grants, its integration, its routes on the parent's API
 * and the permission of each route to call the function. About seven resources an
 * endpoint, so a group can hold some fifty endpoints before it nears CloudFormation's limit.
 */
export class ApiGroupStack extends NestedStack {
  /** Each endpoint's function, by endpoint name. */
  public readonly functions: ReadonlyMap<string, lambda.Function>;

  constructor(scope: Construct, id: string, props: ApiGroupStackProps) {
    super(scope, id, { description: `Wholesale trade shop: the ${props.group} /api endpoints' functions and routes` });
    const functions = new Map<string, lambda.Function>();
    for (const endpoint of props.endpoints) {
      if (endpoint.group !== props.group) throw new Error(`${this.node.path}: endpoint ${endpoint.name} is in group ${endpoint.group}, not ${props.group}`);
      const fn = goFunction(this, endpoint.name, {
        codeDir: props.codeDir,
        binary: API_BINARY,
        memoryMB: endpoint.memoryMB,
        timeout: Duration.seconds(endpoint.timeoutSeconds),
        description: `/api endpoint ${endpoint.name}: ${endpoint.routes.map((r) => `${r.method} ${r.path}`).join(', ')}`,
        environment: {
          ...props.environment,
          [ENDPOINT_VAR]: endpoint.name,
          TABLE_NAME: props.table.tableName,
          ORIGIN_SECRET: props.originSecret.secretValue.unsafeUnwrap(),
          ...(endpoint.csrfSecret ? { CSRF_SECRET: props.csrfSecret.secretValue.unsafeUnwrap() } : {}),
        },
      });
      grantTable(fn, props.table, endpoint.access);
      if (endpoint.stripeSecret) grantStripeSecret(fn, props.stripeSecret!);
      const integration = new HttpLambdaIntegration(`${endpoint.name}Integration`, fn);
      // HttpApi.addRoutes would make the routes in the API's (parent) stack: made here, the
      // route, its integration and its permission are this stack's resources.
      for (const route of endpoint.routes) {
        const r = new apigw.HttpRoute(this, `${route.method}${route.path}`, {
          httpApi: props.httpApi,
          routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
          integration,
        });
        Validations.of(r).acknowledge(NO_API_AUTHORIZER);
      }
      functions.set(endpoint.name, fn);
    }
    this.functions = functions;
  }
}

/**
 * Gives fn exactly `access` on table: one IAM statement per grant, on the table with
 * `ForAllValues:StringLike` on `dynamodb:LeadingKeys` (every partition key the request
 * touches must match one of the grant's patterns), or on one index (catalogue queries).
 */
export function grantTable(fn: lambda.Function, table: dynamodb.ITableV2, access: readonly TableGrant[]): void {
  for (const g of access) {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [...g.actions],
        resources: [g.index === undefined ? table.tableArn : `${table.tableArn}/index/${g.index}`],
        ...(g.index === undefined ? { conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...g.keys] } } } : {}),
      }),
    );
  }
}

/**
 * Lets fn read the stage's Stripe secret (a function with stripeSecret: it calls Stripe or
 * checks its webhook signatures): secretsmanager:GetSecretValue and DescribeSecret on that
 * secret alone, and STRIPE_SECRET_ARN, which it reads once at cold start. The value is
 * read at run time, not resolved into the function's environment at deploy, so it is in
 * no template and no function configuration, and a new key needs no deploy (only new
 * cold starts).
 */
export function grantStripeSecret(fn: lambda.Function, secret: secretsmanager.ISecret): void {
  secret.grantRead(fn);
  fn.addEnvironment('STRIPE_SECRET_ARN', secret.secretArn);
}

/**
 * Lets fn publish product pictures to the media bucket (an endpoint with mediaBucket):
 * s3:PutObject and s3:GetObject (HeadObject) on `media/products/*` only, s3:ListBucket on
 * the bucket (without it S3 answers a missing picture's HeadObject with 403, not 404), and
 * MEDIA_BUCKET, which the function reads.
 */
export function grantMediaBucket(fn: lambda.Function, bucket: s3.IBucket): void {
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [bucket.arnForObjects(`${MEDIA_PRODUCTS_PREFIX}*`)] }));
  Validations.of(fn).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${bucketArnInPolicyOf(fn, bucket)}>/${MEDIA_PRODUCTS_PREFIX}*]`,
    reason: "The product pictures' prefix: the function writes one object per product and size, named at run time.",
  });
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  fn.addEnvironment('MEDIA_BUCKET', bucket.bucketName);
}

/**
 * How the bucket's ARN reads in fn's policy, as cdk-nag quotes it in a finding (which an
 * acknowledgement must name exactly): `MediaBucket.Arn` in the bucket's own stack; in a
 * stack nested in it (an API route group's), the parameter CDK passes the ARN in, named
 * `referenceto` + the bucket's unique id + `Arn`. infra/test/nag.test.ts checks both after
 * a synth, as `cdk synth` does.
 */
function bucketArnInPolicyOf(fn: lambda.Function, bucket: s3.IBucket): string {
  if (Stack.of(fn) === Stack.of(bucket)) return `${bucket.node.id}.Arn`;
  const cfn = bucket.node.defaultChild as CfnResource;
  return `referenceto${Names.nodeUniqueId(cfn.node)}Arn`.replace(/[^A-Za-z0-9]/g, '');
}

/** Inputs of {@link goFunction}. */
export interface GoFunctionOptions {
  readonly codeDir: string;
  /**
   * The binary to run, `{codeDir}/{binary}/bootstrap`; default the function's own name. The
   * API's functions all run one (API_BINARY), so CDK packages and uploads it once.
   */
  readonly binary?: string;
  readonly memoryMB: number;
  readonly description: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly timeout?: Duration;
}

/** One Go Lambda as the project builds them: codeDir/{binary}/bootstrap on provided.al2023, arm64. */
export function goFunction(scope: Construct, name: string, options: GoFunctionOptions): lambda.Function {
  const dir = path.join(options.codeDir, options.binary ?? name);
  if (!existsSync(path.join(dir, 'bootstrap'))) {
    throw new Error(`${scope.node.path}/${name}: ${dir}/bootstrap is missing; build the functions first (node scripts/build-lambdas.mjs)`);
  }
  const fn = new lambda.Function(scope, name, {
    description: options.description,
    runtime: lambda.Runtime.PROVIDED_AL2023,
    architecture: lambda.Architecture.ARM_64,
    handler: 'bootstrap',
    code: lambda.Code.fromAsset(dir),
    memorySize: options.memoryMB,
    timeout: options.timeout ?? Duration.seconds(10),
    environment: { ...options.environment },
    logGroup: new logs.LogGroup(scope, `${name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
  });
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason:
      "AWS's policy for writing the function's own logs (logs:CreateLogStream, logs:PutLogEvents), kept current by AWS; the function's other rights are its own statements.",
  });
  return fn;
}

function validate(props: ShopApiProps, where: string): void {
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  if (props.endpoints.length === 0) fail('no endpoints');
  if (ENDPOINT_VAR in props.environment) fail(`${ENDPOINT_VAR} is set per function to its endpoint's name, not passed to every function`);
  if ('FIREBASE_AUTH_EMULATOR_HOST' in props.environment) {
    fail('FIREBASE_AUTH_EMULATOR_HOST must never reach a deployed function: it turns off token signature checks');
  }
  for (const name of ['CSRF_SECRET', 'ORIGIN_SECRET', 'STRIPE_SECRET_ARN']) {
    if (name in props.environment) fail(`${name} is added per function from its secret, not passed to every function`);
  }
  // The Stripe key and webhook secret are read from the stage's secret at run time, never
  // written into a function's configuration; stripe-mock's address is for the local stage.
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE']) {
    if (name in props.environment) fail(`${name} must never reach a deployed function: the functions read the Stripe keys from STRIPE_SECRET_ARN`);
  }
  const needStripe = props.endpoints.filter((e) => e.stripeSecret).map((e) => e.name);
  if (needStripe.length > 0 && props.stripeSecret === undefined) fail(`${needStripe.join(', ')} need the Stripe secret (stripeSecret) and none was given`);
  const { rateLimit, burstLimit } = props.throttle;
  if (!(rateLimit > 0 && burstLimit > 0 && Number.isInteger(burstLimit))) fail('throttle needs a positive rateLimit and an integer burstLimit');
  const seen = new Set<string>();
  for (const e of props.endpoints) {
    for (const r of e.routes) {
      const key = `${r.method} ${r.path}`;
      if (seen.has(key)) fail(`route ${key} is served by two endpoints`);
      seen.add(key);
    }
  }
}
