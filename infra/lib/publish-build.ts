import {
  CfnResource,
  Duration,
  Stack,
  Validations,
  aws_codebuild as codebuild,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_logs as logs,
  aws_s3_assets as s3assets,
} from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { SITE_PREFIX } from './static-site';

/** The environment variable that names the publish project to the functions that start it (functions/internal/lambdarun). */
export const PUBLISH_PROJECT_VAR = 'PUBLISH_PROJECT';

/** The index the catalogue snapshot reads (functions/internal/store: Catalogue, one Query of it). */
export const CATALOGUE_INDEX = 'gsi2';

/** The site bucket's prefix of release manifests (scripts/target-aws.mjs). */
export const RELEASES_PREFIX = 'releases';

/** How long one publish may run before CodeBuild stops it. */
export const PUBLISH_TIMEOUT = Duration.minutes(60);

/** What the build machine does: Node and Go, the site's packages, then the repository's release command for the stage. */
export const PUBLISH_BUILD_SPEC = {
  version: '0.2',
  env: { shell: 'bash' },
  phases: {
    install: {
      // Any Go of the image from 1.21 on will do: its toolchain switch (GOTOOLCHAIN=auto)
      // fetches the version functions/go.mod names.
      'runtime-versions': { nodejs: '22', golang: '1.23' },
      commands: ['node --version', 'go version'],
    },
    pre_build: {
      commands: [
        'test -n "$NEXT_PUBLIC_FIREBASE_API_KEY" || { echo "publish: the stage has no firebaseApiKey in cdk.json (docs/infrastructure.md \\"First deploy\\"), so the site could not sign anyone in; nothing was published"; exit 1; }',
        'npm ci --no-audit --no-fund',
      ],
    },
    build: { commands: ['bash scripts/release --target aws'] },
  },
};

/** Inputs of {@link PublishBuild}. */
export interface PublishBuildProps {
  /** The repository at the deployed commit, as a zip (scripts/deploy makes it with git archive). */
  readonly sourceZip: string;
  /** The stage, the build's SITE_VERSION (staging or production). */
  readonly stage: string;
  /** The shop table: the build's snapshot reads the catalogue from it. */
  readonly table: dynamodb.ITableV2;
  /** The site bucket the release writes (site/ and releases/). */
  readonly siteBucket: s3.IBucket;
  /** The distribution the release invalidates. */
  readonly distribution: cloudfront.IDistribution;
  /** The route rules the release writes. */
  readonly routeRules: cloudfront.IKeyValueStore;
  /** The site's public origin (SITE_URL: canonical links, the sitemap). */
  readonly siteUrl: string;
  /** The stage's Firebase project, its Web API key and auth domain: the site's sign-in. */
  readonly firebase: { readonly projectId: string; readonly apiKey?: string; readonly authDomain?: string };
}

/**
 * The back office's "Publish catalogue" in the cloud (docs/catalogue-import.md
 * "Publishing"): a CodeBuild project that runs the repository's release command for the
 * stage (scripts/release --target aws) on the commit the stack was deployed from, with the
 * stack's outputs as its environment, one build at a time. Its role may read only the
 * catalogue index of the table, write the site bucket's site/ and releases/, the route
 * rules and the distribution's invalidations, and its own logs. The functions with
 * publishBuild start and read its builds ({@link PublishBuild.grantStartAndRead}).
 */
export class PublishBuild extends Construct {
  public readonly project: codebuild.Project;
  public readonly role: iam.Role;
  /** Where each build's output goes; the back office shows its last lines. */
  public readonly logGroup: logs.LogGroup;
  /** The zipped repository the builds run (an asset of the stack, uploaded by cdk deploy). */
  public readonly source: s3assets.Asset;

  constructor(scope: Construct, id: string, props: PublishBuildProps) {
    super(scope, id);
    const stack = Stack.of(this);
    if (!props.sourceZip.endsWith('.zip')) throw new Error(`${this.node.path}: sourceZip must be a .zip of the repository, not ${props.sourceZip}`);
    this.source = new s3assets.Asset(this, 'Source', { path: props.sourceZip });
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('codebuild.amazonaws.com'),
      description: `Publishes the ${props.stage} catalogue: scripts/release --target aws`,
    });

    const env = (value: string): codebuild.BuildEnvironmentVariable => ({ value });
    this.project = new codebuild.Project(this, 'Project', {
      description: `Publish the ${props.stage} catalogue from the back office: scripts/release --target aws`,
      source: codebuild.Source.s3({ bucket: this.source.bucket, path: this.source.s3ObjectKey }),
      buildSpec: codebuild.BuildSpec.fromObject(PUBLISH_BUILD_SPEC),
      role: this.role,
      concurrentBuildLimit: 1,
      timeout: PUBLISH_TIMEOUT,
      queuedTimeout: Duration.minutes(30),
      environment: {
        buildImage: codebuild.LinuxBuildImage.STANDARD_7_0,
        computeType: codebuild.ComputeType.LARGE,
        environmentVariables: {
          TABLE_NAME: env(props.table.tableName),
          AWS_REGION: env(stack.region),
          RELEASE_BUCKET: env(props.siteBucket.bucketName),
          RELEASE_DISTRIBUTION_ID: env(props.distribution.distributionId),
          RELEASE_KVS_ARN: env(props.routeRules.keyValueStoreArn),
          SITE_URL: env(props.siteUrl),
          SITE_VERSION: env(props.stage),
          NEXT_PUBLIC_FIREBASE_PROJECT_ID: env(props.firebase.projectId),
          NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN: env(props.firebase.authDomain ?? `${props.firebase.projectId}.firebaseapp.com`),
          ...(props.firebase.apiKey === undefined ? {} : { NEXT_PUBLIC_FIREBASE_API_KEY: env(props.firebase.apiKey) }),
          NEXT_TELEMETRY_DISABLED: env('1'),
        },
      },
      logging: { cloudWatch: { logGroup: this.logGroup } },
    });

    // The snapshot: the catalogue, one Query of its index (no customer's item).
    this.role.addToPolicy(new iam.PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${props.table.tableArn}/index/${CATALOGUE_INDEX}`] }));
    // The release: what is published and its manifests, read, written and cleaned up.
    const objects = [props.siteBucket.arnForObjects(`${SITE_PREFIX}/*`), props.siteBucket.arnForObjects(`${RELEASES_PREFIX}/*`)];
    this.role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: objects }));
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [props.siteBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${SITE_PREFIX}/*`, `${RELEASES_PREFIX}/*`] } },
      }),
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:ListKeys', 'cloudfront-keyvaluestore:UpdateKeys'],
        resources: [props.routeRules.keyValueStoreArn],
      }),
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation'],
        resources: [stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: props.distribution.distributionId })],
      }),
    );

    const acknowledge = (construct: Construct, id: string, reason: string) => Validations.of(construct).acknowledge({ id, reason });
    acknowledge(
      this.project,
      'AwsSolutions-CB4',
      'The build makes no artifacts (the release writes the site bucket itself, which is encrypted); its logs are in its own log group and the source is the stack asset, which the CDK bootstrap bucket encrypts. A customer-managed key would guard nothing more.',
    );
    // cdk-nag quotes a resource as the template has it: a reference as <LogicalId> (or
    // <LogicalId.Arn>), a pseudo parameter as <AWS::Region>; infra/test/nag.test.ts checks
    // these against a synth.
    const quoted = (v: string): string => {
      const r: unknown = stack.resolve(v);
      if (typeof r === 'string') return r;
      const ref = (r as { Ref?: string }).Ref;
      if (ref !== undefined) return `<${ref}>`;
      throw new Error(`${this.node.path}: cannot quote ${JSON.stringify(r)} as cdk-nag does`);
    };
    const logicalId = (c: Construct): string => quoted((c.node.defaultChild as CfnResource).logicalId);
    const project = logicalId(this.project);
    const arnPrefix = (service: string) => `arn:<AWS::Partition>:${service}:${quoted(stack.region)}:${quoted(stack.account)}`;
    const findings: [string, string][] = [
      [
        `<${logicalId(props.siteBucket)}.Arn>/${SITE_PREFIX}/*`,
        "The site's files: the release writes, reads and cleans up one object per page and asset, named by the build.",
      ],
      [`<${logicalId(props.siteBucket)}.Arn>/${RELEASES_PREFIX}/*`, "The releases' manifests: one object per published build, named by its id."],
      [
        `${arnPrefix('logs')}:log-group:/aws/codebuild/<${project}>:*`,
        "CDK's grant for CodeBuild's default log group of the project, named after it (the builds write to this construct's own log group).",
      ],
      [
        `${arnPrefix('codebuild')}:report-group/<${project}>-*`,
        "CDK's grant for the project's test report groups, named after it; the release writes no reports.",
      ],
    ];
    for (const [resource, reason] of findings) Validations.of(this.role).acknowledge({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason });
    // CDK's grant for reading the build's source, the asset's one key (codebuild.Source.s3).
    for (const [action, why] of [
      ['s3:GetObject*', 'GetObject and GetObjectVersion of the source zip'],
      ['s3:GetBucket*', "the asset bucket's location and versioning, which CodeBuild reads with the source"],
      ['s3:List*', 'listing the source key in the asset bucket'],
    ] as const) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `CDK's grant for the build's own source, on the stack asset's key alone: ${why}.`,
      });
    }
  }

  /**
   * Lets fn start builds of the project and read them (a function with publishBuild: the
   * back office's "Publish catalogue"): codebuild:StartBuild, ListBuildsForProject and
   * BatchGetBuilds on this project, logs:GetLogEvents on its log group's streams, and
   * PUBLISH_PROJECT, which the function reads.
   */
  grantStartAndRead(fn: lambda.Function): void {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['codebuild:StartBuild', 'codebuild:ListBuildsForProject', 'codebuild:BatchGetBuilds'],
        resources: [this.project.projectArn],
      }),
    );
    // The log group's ARN attribute ends in :*, which covers its streams, where GetLogEvents is checked.
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['logs:GetLogEvents'], resources: [this.logGroup.logGroupArn] }));
    fn.addEnvironment(PUBLISH_PROJECT_VAR, this.project.projectName);
  }
}
