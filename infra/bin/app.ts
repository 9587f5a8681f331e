// CDK app entry (see the root cdk.json). The only place that reads context or the environment:
//   -c stage=staging|production   which stack to synthesize (default from cdk.json: staging)
//   -c lambdaDir=DIR              built functions (default .local/lambda, from scripts/build-lambdas.mjs)
//   -c publishSource=ZIP          the repository as a zip, the publish build's source (default
//                                 .local/publish-source.zip, made by scripts/deploy)
//   -c build=ID                   the code's version every function logs as BUILD_ID (scripts/deploy
//                                 passes the short commit; default unversioned)
// Each stage's settings are the context key `stages` in cdk.json.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { loadShopOperations } from '../lib/shop-config';
import { addStage, parseStage, type StageConfig } from '../lib/shop-stack';

const app = new App();
// cdk-nag's AwsSolutions checks run at every synth (and so before every deploy): a finding
// not acknowledged where its resource is made stops the synth (infra/test/nag.test.ts).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
const stage = parseStage(app.node.tryGetContext('stage') ?? 'staging');
const stages = (app.node.tryGetContext('stages') ?? {}) as Record<string, StageConfig | undefined>;
const config = stages[stage];
if (config === undefined) throw new Error(`cdk.json has no context stages.${stage}`);
const repoRoot = path.resolve(__dirname, '..', '..');
const lambdaDir = path.resolve(repoRoot, String(app.node.tryGetContext('lambdaDir') ?? '.local/lambda'));
const publishSource = path.resolve(repoRoot, String(app.node.tryGetContext('publishSource') ?? '.local/publish-source.zip'));
if (!existsSync(publishSource)) {
  throw new Error(
    `${publishSource} is missing: it is the publish build's source, the repository as a zip (scripts/deploy makes it; or git archive --format=zip -o ${path.relative(repoRoot, publishSource)} HEAD)`,
  );
}

// Three stacks: TradeShop-{stage}-Edge (us-east-1: the WAF web ACL, which CloudFront takes
// only from there), TradeShop-{stage} (the stage's region) and TradeShop-{stage}-EdgeAlarms
// (us-east-1: CloudFront's alarm, where its metrics are). `cdk deploy --all` deploys them in
// that order. The account comes from the CLI's credentials at deploy time. The alarms email
// functions/config/shop.json's operations.alarm_email, checked against its schema.
const { alarmEmail } = loadShopOperations();
const build = app.node.tryGetContext('build') as string | undefined;
addStage(app, {
  stage,
  config,
  lambdaDir,
  publishSource,
  alarmEmail,
  ...(build !== undefined && { build: String(build) }),
  account: process.env['CDK_DEFAULT_ACCOUNT'],
});
