import { App, CfnOutput, Duration, Stack, Tags, Validations, aws_secretsmanager as secretsmanager, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { EmailSender } from './email-sender';
import { loadEndpoints, type Endpoint } from './endpoints';
import { EdgeAlarmsStack, ShopMonitoring } from './monitoring';
import { OrderSweeper } from './order-sweeper';
import { PublishBuild } from './publish-build';
import { StatementSender } from './statement-sender';
import { loadTableSchema, type TableSchema } from './schema';
import { loadSecurityHeaders, type SecurityHeaders } from './security-headers';
import { ShopApi, grantMediaBucket, type ApiThrottle } from './shop-api';
import { StaticSite } from './static-site';
import { EdgeStack, type ClientRateLimit } from './web-acl';
import { ShopTable } from './table';

/** The header CloudFront adds to API requests (functions/internal/api/origin.go). */
export const ORIGIN_SECRET_HEADER = 'X-Origin-Verify';

/** The deployments the shop has; each is its own stack with its own table. */
export const STAGES = ['staging', 'production'] as const;

/** One of {@link STAGES}. */
export type Stage = (typeof STAGES)[number];

/** Narrows an untrusted value (CLI context) to a {@link Stage}, or throws naming the allowed ones. */
export function parseStage(value: unknown): Stage {
  const stage = STAGES.find((s) => s === value);
  if (stage === undefined) throw new Error(`stage must be one of ${STAGES.join(', ')}; got ${JSON.stringify(value)}`);
  return stage;
}

/** What differs between stages; bin/app.ts reads it from the CDK context. */
export interface StageConfig {
  /** The Firebase project whose ID tokens the functions accept. */
  readonly firebaseProjectId: string;
  /** API-wide throttling. */
  readonly throttle: ApiThrottle;
  /** Per client address on /api/*: the WAF's rate-based rule (429 beyond it). */
  readonly clientRateLimit: ClientRateLimit;
  /** The stage's AWS region (the table, API and functions); the web ACL is always in us-east-1. */
  readonly region: string;
  /** Days an overwritten or deleted site object is kept: how far back a rollback can reach. */
  readonly rollbackDays: number;
  /**
   * The site's public origin ("https://trade.example.co.uk") when it has its own domain;
   * by default the distribution's own https://….cloudfront.net.
   */
  readonly siteOrigin?: string;
  /**
   * An existing table for the stage to use instead of the one the stack creates: the
   * table a point-in-time restore made (docs/infrastructure.md "Restoring the table").
   * The stack imports it by name, grants the functions on it as on its own, and neither
   * creates, changes nor deletes it.
   */
  readonly tableName?: string;
  /**
   * The Firebase project's Web API key (public: it is in every page's script), for the
   * publish build's site (NEXT_PUBLIC_FIREBASE_API_KEY). Until it is set the back office's
   * publish fails at once, saying so.
   */
  readonly firebaseApiKey?: string;
  /** The Firebase auth domain; default `{firebaseProjectId}.firebaseapp.com`. */
  readonly firebaseAuthDomain?: string;
}

/** Inputs of {@link ShopStack}. */
export interface ShopStackProps extends StackProps {
  /** Which deployment this is; tagged on every resource. */
  readonly stage: Stage;
  readonly config: StageConfig;
  /** Folder of built functions, `{name}/bootstrap` each (scripts/build-lambdas.mjs). */
  readonly lambdaDir: string;
  /** The table shape; defaults to functions/schema/table.json. Tests pass their own. */
  readonly schema?: TableSchema;
  /** The /api surface; defaults to functions/internal/api/endpoints.json. */
  readonly endpoints?: readonly Endpoint[];
  /** Defaults to functions/internal/edge/security-headers.json. */
  readonly securityHeaders?: SecurityHeaders;
  /** ARN of the CLOUDFRONT-scope WAF web ACL (the stage's {@link EdgeStack}) put on the distribution. */
  readonly webAclArn: string;
  /** Who the alarms email: shop.json operations.alarm_email. */
  readonly alarmEmail: string;
  /** The code's version, BUILD_ID on every function, on every log line (docs/operations.md);
   * scripts/deploy passes the short commit. Default `unversioned`. */
  readonly build?: string;
  /**
   * The repository at the deployed commit as a zip: the source of the publish build
   * (scripts/deploy makes it with git archive; docs/infrastructure.md "First deploy").
   */
  readonly publishSource: string;
}

/**
 * The whole shop for one stage: the table, the API with one function per endpoint, and
 * the static site on CloudFront. Its outputs are what the release needs.
 */
export class ShopStack extends Stack {
  public readonly shopTable: ShopTable;
  public readonly api: ShopApi;
  public readonly site: StaticSite;
  public readonly monitoring: ShopMonitoring;
  /** The back office's "Publish catalogue": the CodeBuild project that runs the release. */
  public readonly publish: PublishBuild;

  constructor(scope: Construct, id: string, props: ShopStackProps) {
    super(scope, id, props);
    const stage = parseStage(props.stage);
    const build = props.build ?? 'unversioned';
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(build)) throw new Error(`build ${JSON.stringify(build)} must be 1 to 64 letters, digits, dots, hyphens or underscores`);
    Tags.of(this).add('tradeshop:stage', stage);

    this.shopTable = new ShopTable(this, 'ShopTable', { schema: props.schema ?? loadTableSchema(), existingTableName: props.config.tableName });

    // The functions that check or issue CSRF tokens share this signing secret; the origin
    // secret is the header CloudFront adds to every API request, which every function
    // checks. Both are generated in Secrets Manager and reach the functions (and the
    // distribution) as dynamic references, never as text in the template.
    const csrfSecret = new secretsmanager.Secret(this, 'CsrfSecret', {
      description: `CSRF token signing secret (${stage})`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    const originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: `Header value CloudFront adds to API requests, X-Origin-Verify (${stage})`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    for (const secret of [csrfSecret, originSecret]) {
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by hand (put a new value, deploy again: docs/infrastructure.md). The value reaches the functions and the distribution as a dynamic reference resolved at deploy, so an automatic rotation would split them until the next deploy and refuse every request meanwhile.',
      });
    }

    // The Stripe keys of card payments (docs/payments.md "Going live"): created with a
    // placeholder, as the SMTP credentials are (an empty secret_key, so card payment is off,
    // and a random webhook_secret, so no event passes), then set by hand once
    // (docs/infrastructure.md "First deploy"); a later deploy keeps the value set. Only the
    // functions with stripeSecret in endpoints.json may read it, at cold start.
    const stripeSecret = new secretsmanager.Secret(this, 'StripeSecret', {
      description: `Stripe secret key and webhook signing secret for card payments, JSON {"secret_key","webhook_secret"} (${stage})`,
      generateSecretString: { secretStringTemplate: JSON.stringify({ secret_key: '' }), generateStringKey: 'webhook_secret', excludePunctuation: true },
    });
    Validations.of(stripeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Stripe\'s keys are rolled in Stripe\'s dashboard, which Secrets Manager cannot do; the operator puts the new ones in (docs/infrastructure.md "First deploy").',
    });

    this.api = new ShopApi(this, 'Api', {
      endpoints: props.endpoints ?? loadEndpoints(),
      table: this.shopTable.table,
      codeDir: props.lambdaDir,
      throttle: props.config.throttle,
      environment: { STAGE: stage, BUILD_ID: build, FIREBASE_PROJECT_ID: props.config.firebaseProjectId },
      csrfSecret,
      originSecret,
      stripeSecret,
    });

    const sweeper = new OrderSweeper(this, 'OrderSweeper', {
      table: this.shopTable.table,
      codeDir: props.lambdaDir,
      stripeSecret,
      environment: { STAGE: stage, BUILD_ID: build, FIREBASE_PROJECT_ID: props.config.firebaseProjectId },
    });

    // The SES SMTP credentials: created with a placeholder (a random password and an
    // empty username, so nothing can send until they are set), then set by hand once
    // (docs/infrastructure.md "Email"); a later deploy keeps the value set.
    const smtpSecret = new secretsmanager.Secret(this, 'SmtpSecret', {
      description: `Amazon SES SMTP credentials for sendEmails, JSON {"username","password"} (${stage})`,
      generateSecretString: { secretStringTemplate: JSON.stringify({ username: '' }), generateStringKey: 'password', excludePunctuation: true },
    });
    Validations.of(smtpSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'SES SMTP credentials are derived from an IAM user by hand (docs/infrastructure.md "Email"); Secrets Manager cannot rotate them, the operator replaces them.',
    });
    const emailSender = new EmailSender(this, 'EmailSender', {
      table: this.shopTable.table,
      codeDir: props.lambdaDir,
      environment: { STAGE: stage, BUILD_ID: build },
      smtpSecret,
    });
    // The monthly statements, queued for emailSender to send (docs/statements.md).
    const statementSender = new StatementSender(this, 'StatementSender', {
      table: this.shopTable.table,
      codeDir: props.lambdaDir,
      environment: { STAGE: stage, BUILD_ID: build },
    });

    this.site = new StaticSite(this, 'Site', {
      apiDomainName: this.api.domainName,
      apiOriginHeaders: { [ORIGIN_SECRET_HEADER]: originSecret.secretValue.unsafeUnwrap() },
      webAclArn: props.webAclArn,
      codeDir: props.lambdaDir,
      securityHeaders: props.securityHeaders ?? loadSecurityHeaders(),
      keepOldVersions: Duration.days(props.config.rollbackDays),
    });
    const siteOrigin = props.config.siteOrigin ?? `https://${this.site.distribution.distributionDomainName}`;
    for (const fn of this.api.functions.values()) fn.addEnvironment('SITE_ORIGIN', siteOrigin);
    // The statement emails link the buyer's dashboard on the site; the sweeper's card
    // refunds read the same Stripe settings as the API, which name the site.
    statementSender.fn.addEnvironment('SITE_ORIGIN', siteOrigin);
    sweeper.fn.addEnvironment('SITE_ORIGIN', siteOrigin);
    // The 404 function's log lines carry the stage's namespace and the build like the rest.
    this.site.notFound.addEnvironment('STAGE', stage).addEnvironment('BUILD_ID', build);
    // The back office's picture upload publishes to the media bucket (made with the site).
    for (const e of this.api.endpoints.filter((x) => x.mediaBucket)) grantMediaBucket(this.api.functions.get(e.name)!, this.site.mediaBucket);
    // The back office's "Publish catalogue" starts the release on CodeBuild (issue 40).
    this.publish = new PublishBuild(this, 'Publish', {
      sourceZip: props.publishSource,
      stage,
      table: this.shopTable.table,
      siteBucket: this.site.bucket,
      distribution: this.site.distribution,
      routeRules: this.site.routeRules,
      siteUrl: siteOrigin,
      firebase: {
        projectId: props.config.firebaseProjectId,
        ...(props.config.firebaseApiKey !== undefined && { apiKey: props.config.firebaseApiKey }),
        ...(props.config.firebaseAuthDomain !== undefined && { authDomain: props.config.firebaseAuthDomain }),
      },
    });
    for (const e of this.api.endpoints.filter((x) => x.publishBuild)) this.publish.grantStartAndRead(this.api.functions.get(e.name)!);

    this.monitoring = new ShopMonitoring(this, 'Monitoring', {
      stage,
      alarmEmail: props.alarmEmail,
      endpoints: this.api.endpoints,
      apiFunctions: this.api.functions,
      siteFunctions: new Map([['notFound', this.site.notFound]]),
      jobs: new Map([
        ['sweepOrders', sweeper.fn],
        ['sendEmails', emailSender.fn],
        ['statements', statementSender.fn],
      ]),
      table: this.shopTable.table,
      distributionId: this.site.distribution.distributionId,
    });

    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output('TableName', this.shopTable.table.tableName, `The ${stage} shop table`);
    output('SiteBucketName', this.site.bucket.bucketName, 'RELEASE_BUCKET for scripts/release');
    output('DistributionId', this.site.distribution.distributionId, 'RELEASE_DISTRIBUTION_ID for scripts/release');
    output('RouteRulesStoreArn', this.site.routeRules.keyValueStoreArn, 'RELEASE_KVS_ARN for scripts/release');
    output('MediaBucketName', this.site.mediaBucket.bucketName, 'Product images, served under /media/');
    output('SiteUrl', siteOrigin, 'Where the shop is served');
    output('DashboardName', this.monitoring.dashboard.dashboardName, 'The CloudWatch dashboard of the stage');
    output('AlarmTopicArn', this.monitoring.alarmTopic.topic.topicArn, 'Where the alarms go (email: shop.json operations.alarm_email)');
    output('SmtpSecretArn', smtpSecret.secretArn, 'Secret to put the SES SMTP credentials in (docs/infrastructure.md "Email")');
    output(
      'PublishProjectName',
      this.publish.project.projectName,
      'The CodeBuild project the back office\'s "Publish catalogue" starts (scripts/release --target aws)',
    );
    output('StripeSecretArn', stripeSecret.secretArn, 'Secret to put the Stripe keys in (docs/infrastructure.md "First deploy")');
  }
}

/** The stacks of one stage: the us-east-1 web ACL, the shop, and the us-east-1 CloudFront alarm. */
export interface StageStacks {
  readonly edge: EdgeStack;
  readonly shop: ShopStack;
  readonly edgeAlarms: EdgeAlarmsStack;
}

/**
 * Adds one stage's stacks to app, as bin/app.ts deploys them: `TradeShop-{stage}-Edge` in
 * us-east-1 (the web ACL; CloudFront scope lives only there), `TradeShop-{stage}` in
 * the stage's region, which reads the ACL's ARN by a cross-region reference, and
 * `TradeShop-{stage}-EdgeAlarms` in us-east-1 (CloudFront's alarm, where its metrics are),
 * which reads the distribution's id the same way. The alarms email alarmEmail (bin/app.ts
 * reads it from shop.json's operations.alarm_email).
 */
export function addStage(
  app: App,
  options: {
    stage: Stage;
    config: StageConfig;
    lambdaDir: string;
    publishSource: string;
    alarmEmail: string;
    build?: string;
    idPrefix?: string;
    account?: string;
  },
): StageStacks {
  const { stage, config } = options;
  const { alarmEmail } = options;
  const prefix = options.idPrefix ?? 'TradeShop';
  const account = options.account;
  const edge = new EdgeStack(app, `${prefix}-${stage}-Edge`, {
    env: { account, region: 'us-east-1' },
    crossRegionReferences: true,
    limit: config.clientRateLimit,
    metricPrefix: `tradeshop-${stage}`,
    description: `Wholesale trade shop (${stage}): the CloudFront web ACL (us-east-1).`,
  });
  Tags.of(edge).add('tradeshop:stage', stage);
  const shop = new ShopStack(app, `${prefix}-${stage}`, {
    env: { account, region: config.region },
    crossRegionReferences: true,
    stage,
    config,
    lambdaDir: options.lambdaDir,
    publishSource: options.publishSource,
    webAclArn: edge.webAcl.webAcl.attrArn,
    alarmEmail,
    ...(options.build !== undefined && { build: options.build }),
    description: `Wholesale trade shop (${stage}): table, API functions, static site on CloudFront, alarms and dashboard.`,
  });
  const edgeAlarms = new EdgeAlarmsStack(app, `${prefix}-${stage}-EdgeAlarms`, {
    env: { account, region: 'us-east-1' },
    crossRegionReferences: true,
    stage,
    alarmEmail,
    distributionId: shop.site.distribution.distributionId,
    description: `Wholesale trade shop (${stage}): the CloudFront 5xx alarm (us-east-1, where CloudFront's metrics are).`,
  });
  Tags.of(edgeAlarms).add('tradeshop:stage', stage);
  return { edge, shop, edgeAlarms };
}
