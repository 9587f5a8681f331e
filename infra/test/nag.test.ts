import { App, Stack, Validations, aws_s3 as s3, aws_sns as sns } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../lib/shop-stack';
import { stageStacks } from './fixtures';

/** The rules acknowledged on the construct itself (not on its children). */
const acknowledgedOn = (c: IConstruct): unknown[] => c.node.metadata.filter((m: { type: string }) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY);

/**
 * cdk-nag's AwsSolutions pack over one stack: every unacknowledged error and warning, as
 * "rule construct-path". The app is synthesised first, as `cdk synth` does before the
 * check: only then does a nested stack's reference to its parent read as the parameter
 * CDK passes it in, as a finding names it.
 */
function findings(stack: Stack): string[] {
  (stack.node.root as App).synth();
  const report = new AwsSolutionsChecks(stack).validateScope(stack);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} (${v.severity}) ${r.constructPath ?? r.resourceLogicalId}`));
}

describe.each(STAGES)('cdk-nag AwsSolutions on the %s stacks', (stage) => {
  const stacks = stageStacks(stage);

  // Each finding is fixed or acknowledged where the resource is made (Validations.of(…)
  // .acknowledge with the reason), on that resource rather than on a whole stack.
  it.each(['edge', 'shop', 'edgeAlarms'] as const)('finds nothing unacknowledged in the %s stack', (which) => {
    expect(findings(stacks[which])).toEqual([]);
  });

  it('acknowledges no rule on a whole stack or app', () => {
    for (const stack of [stacks.edge, stacks.shop, stacks.edgeAlarms]) expect(acknowledgedOn(stack), stack.stackName).toEqual([]);
    expect(acknowledgedOn(stacks.shop.node.root)).toEqual([]);
  });
});

describe('the nag check itself', () => {
  it('finds what it should: a bucket without TLS enforcement or logs, a topic without TLS', () => {
    const stack = new Stack(new App(), 'Bad', { env: { account: '123456789012', region: 'eu-west-2' } });
    new s3.Bucket(stack, 'Bucket');
    new sns.Topic(stack, 'Topic');
    const found = findings(stack);
    // …and an acknowledgment on a stack would show in its metadata.
    Validations.of(stack).acknowledge({ id: 'AwsSolutions-S1', reason: 'control' });
    expect(acknowledgedOn(stack)).toHaveLength(1);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^AwsSolutions-S1 .*Bad\/Bucket/),
        expect.stringMatching(/^AwsSolutions-S10 .*Bad\/Bucket/),
        expect.stringMatching(/^AwsSolutions-SNS3 .*Bad\/Topic/),
      ]),
    );
  });
});
