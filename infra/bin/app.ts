// CDK app entry (see the root cdk.json). The only place that reads context or the environment:
//   -c stage=staging|production   which stack to synthesize (default from cdk.json: staging)
//   -c lambdaDir=DIR              built functions (default .local/lambda, from scripts/build-lambdas.mjs)
// Each stage's settings are the context key `stages` in cdk.json.
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { addStage, parseStage, type StageConfig } from '../lib/shop-stack';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage') ?? 'staging');
const stages = (app.node.tryGetContext('stages') ?? {}) as Record<string, StageConfig | undefined>;
const config = stages[stage];
if (config === undefined) throw new Error(`cdk.json has no context stages.${stage}`);
const repoRoot = path.resolve(__dirname, '..', '..');
const lambdaDir = path.resolve(repoRoot, String(app.node.tryGetContext('lambdaDir') ?? '.local/lambda'));

// Two stacks: TradeShop-{stage}-Edge (us-east-1: the WAF web ACL, which CloudFront takes
// only from there) and TradeShop-{stage} (the stage's region). `cdk deploy --all` deploys
// the edge stack first. The account comes from the CLI's credentials at deploy time.
addStage(app, { stage, config, lambdaDir, account: process.env['CDK_DEFAULT_ACCOUNT'] });
