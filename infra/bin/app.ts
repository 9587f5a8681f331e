// CDK app entry (see the root cdk.json). The only place that reads context or the environment:
// `-c stage=staging|production` (default from cdk.json: staging) picks the one stack to synthesize.
import { App } from 'aws-cdk-lib';
import { ShopStack, parseStage } from '../lib/shop-stack';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage') ?? 'staging');

new ShopStack(app, `TradeShop-${stage}`, {
  stage,
  description: `Wholesale trade shop backend (${stage}): DynamoDB table.`,
});
