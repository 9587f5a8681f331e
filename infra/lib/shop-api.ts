import { existsSync } from 'node:fs';
import * as path from 'node:path';
import {
  Duration, Fn, aws_apigatewayv2 as apigw, aws_dynamodb as dynamodb, aws_lambda as lambda, aws_logs as logs,
} from 'aws-cdk-lib';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import type { Endpoint } from './endpoints';

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
  /** The shop table each function reads or writes as its endpoint's `table` says. */
  readonly table: dynamodb.ITableV2;
  /** Folder holding `{name}/bootstrap` for every endpoint, as scripts/build-lambdas.mjs writes it. */
  readonly codeDir: string;
  /** Environment every function gets (TABLE_NAME is added here). Must not name the Auth emulator. */
  readonly environment: Readonly<Record<string, string>>;
  /** API-wide throttling of the default stage. */
  readonly throttle: ApiThrottle;
}

/**
 * The shop's HTTP API: one Go Lambda per endpoint (provided.al2023, arm64, the bootstrap
 * built with -tags lambda.norpc), each with only the table rights its endpoint needs,
 * behind an HTTP API whose routes are exactly the endpoints' routes, throttled.
 */
export class ShopApi extends Construct {
  /** The HTTP API; CloudFront sends /api/* to it. */
  public readonly httpApi: apigw.HttpApi;
  /** The API's host name (no scheme), for CloudFront's origin. */
  public readonly domainName: string;
  /** Each endpoint's function, by endpoint name. */
  public readonly functions: ReadonlyMap<string, lambda.Function>;

  constructor(scope: Construct, id: string, props: ShopApiProps) {
    super(scope, id);
    validate(props, this.node.path);

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Wholesale trade shop /api endpoints (reached through CloudFront)',
      createDefaultStage: false,
    });
    new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
    });
    this.domainName = Fn.select(2, Fn.split('/', this.httpApi.apiEndpoint));

    const functions = new Map<string, lambda.Function>();
    for (const endpoint of props.endpoints) {
      const fn = goFunction(this, endpoint.name, {
        codeDir: props.codeDir,
        memoryMB: endpoint.memoryMB,
        description: `/api endpoint ${endpoint.name}: ${endpoint.routes.map((r) => `${r.method} ${r.path}`).join(', ')}`,
        environment: { ...props.environment, TABLE_NAME: props.table.tableName },
      });
      if (endpoint.tableActions.length > 0) props.table.grant(fn, ...endpoint.tableActions);
      const integration = new HttpLambdaIntegration(`${endpoint.name}Integration`, fn);
      for (const route of endpoint.routes) {
        this.httpApi.addRoutes({ path: route.path, methods: [apigw.HttpMethod[route.method]], integration });
      }
      functions.set(endpoint.name, fn);
    }
    this.functions = functions;
  }
}

/** Inputs of {@link goFunction}. */
export interface GoFunctionOptions {
  readonly codeDir: string;
  readonly memoryMB: number;
  readonly description: string;
  readonly environment: Readonly<Record<string, string>>;
  readonly timeout?: Duration;
}

/** One Go Lambda as the project builds them: codeDir/{name}/bootstrap on provided.al2023, arm64. */
export function goFunction(scope: Construct, name: string, options: GoFunctionOptions): lambda.Function {
  const dir = path.join(options.codeDir, name);
  if (!existsSync(path.join(dir, 'bootstrap'))) {
    throw new Error(`${scope.node.path}/${name}: ${dir}/bootstrap is missing; build the functions first (node scripts/build-lambdas.mjs)`);
  }
  return new lambda.Function(scope, name, {
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
}

function validate(props: ShopApiProps, where: string): void {
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  if (props.endpoints.length === 0) fail('no endpoints');
  if ('FIREBASE_AUTH_EMULATOR_HOST' in props.environment) {
    fail('FIREBASE_AUTH_EMULATOR_HOST must never reach a deployed function: it turns off token signature checks');
  }
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
