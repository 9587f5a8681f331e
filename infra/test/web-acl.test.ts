import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { STAGES, addStage, ORIGIN_SECRET_HEADER } from '../lib/shop-stack';
import { COUNTED_COMMON_RULES, TOO_MANY_MESSAGE } from '../lib/web-acl';
import { alarmEmail, edgeTemplate, fakeLambdaDir, fakePublishSource, resources, secretRef, stackTemplate, stageConfigs, stageStacks } from './fixtures';

describe.each(STAGES)('the %s web ACL and the API origin', (stage) => {
  const edge = edgeTemplate(stage);
  const shop = stackTemplate(stage);
  const acls = resources(edge, 'AWS::WAFv2::WebACL');
  const [aclId] = Object.keys(acls);
  const acl = acls[aclId!]!.Properties;
  const rule = (name: string) => (acl['Rules'] as { Name: string }[]).find((r) => r.Name === name) as Record<string, any> | undefined;
  const distribution = Object.values(resources(shop, 'AWS::CloudFront::Distribution'))[0]!.Properties['DistributionConfig'];

  it('is one CLOUDFRONT-scope web ACL, in us-east-1, allowing by default', () => {
    expect(Object.keys(acls)).toHaveLength(1);
    expect(stageStacks(stage).edge.region).toBe('us-east-1');
    expect(stageStacks(stage).shop.region).toBe(stageConfigs[stage].region);
    expect(acl).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(resources(shop, 'AWS::WAFv2::WebACL')).toEqual({});
  });

  it("limits each client IP on /api/* but Stripe's signed webhook to the stage's rate, answering 429 with Retry-After", () => {
    const { requests, windowSeconds } = stageConfigs[stage].clientRateLimit;
    expect(rule('ApiRatePerIp')).toMatchObject({
      Priority: 0,
      Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'TooMany', ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }] } } },
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          Limit: requests,
          EvaluationWindowSec: windowSeconds,
          ScopeDownStatement: {
            AndStatement: {
              Statements: [
                {
                  ByteMatchStatement: {
                    FieldToMatch: { UriPath: {} },
                    PositionalConstraint: 'STARTS_WITH',
                    SearchString: '/api/',
                    TextTransformations: [{ Priority: 0, Type: 'NONE' }],
                  },
                },
                {
                  NotStatement: {
                    Statement: {
                      ByteMatchStatement: {
                        FieldToMatch: { UriPath: {} },
                        PositionalConstraint: 'EXACTLY',
                        SearchString: '/api/payments/stripe',
                        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
                      },
                    },
                  },
                },
              ],
            },
          },
        },
      },
    });
    expect(acl['CustomResponseBodies']['TooMany']).toEqual({ ContentType: 'APPLICATION_JSON', Content: JSON.stringify({ error: TOO_MANY_MESSAGE }) });
  });

  it('runs the AWS managed common rule set after it, with only the body size rule counting', () => {
    expect(rule('AWSManagedRulesCommonRuleSet')).toMatchObject({
      Priority: 1,
      OverrideAction: { None: {} },
      Statement: {
        ManagedRuleGroupStatement: {
          VendorName: 'AWS',
          Name: 'AWSManagedRulesCommonRuleSet',
          RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
        },
      },
    });
    expect(Object.keys(COUNTED_COMMON_RULES)).toEqual(['SizeRestrictions_BODY']);
    expect(acl['Rules']).toHaveLength(2);
  });

  it("is the distribution's web ACL, by the cross-region reference to its ARN", () => {
    const ref = distribution['WebACLId']['Fn::GetAtt'];
    expect(ref[0]).toMatch(/^ExportsReader/);
    const writer = Object.values(resources(edge, 'Custom::CrossRegionExportWriter'))[0]!.Properties['WriterProps'];
    expect(writer.region).toBe(stageConfigs[stage].region);
    expect(writer.exports[ref[1]]).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });

  it('sends the origin secret on every API request, the value every function checks', () => {
    const apiOrigins = (distribution['Origins'] as Record<string, any>[]).filter((o) => JSON.stringify(o['DomainName']).includes('HttpApi'));
    expect(apiOrigins).toHaveLength(1);
    expect(apiOrigins[0]!['OriginCustomHeaders']).toEqual([{ HeaderName: ORIGIN_SECRET_HEADER, HeaderValue: secretRef('OriginSecret') }]);
    const others = (distribution['Origins'] as Record<string, any>[]).filter((o) => o !== apiOrigins[0]);
    for (const o of others) expect(o['OriginCustomHeaders'] ?? []).toEqual([]);
    shop.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 64 }) });
    expect(JSON.stringify(shop.toJSON())).not.toMatch(/X-Origin-Verify"\s*,\s*"HeaderValue"\s*:\s*"[^{]/); // never a literal value
  });
});

describe('web ACL validation', () => {
  const make = (limit: { requests: number; windowSeconds: number }) => () =>
    addStage(new App(), {
      stage: 'staging',
      config: { ...stageConfigs.staging, clientRateLimit: limit as never },
      lambdaDir: fakeLambdaDir(),
      publishSource: fakePublishSource(),
      alarmEmail,
      idPrefix: 'W',
    });

  it('refuses a limit WAF would not take', () => {
    expect(make({ requests: 5, windowSeconds: 300 })).toThrow(/at least 10/);
    expect(make({ requests: 100, windowSeconds: 30 })).toThrow(/60, 120, 300 or 600/);
  });
});
