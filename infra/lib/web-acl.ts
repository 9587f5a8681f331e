import { Stack, aws_wafv2 as wafv2, type StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';

/** How many /api requests one client address may make in a window before the WAF answers 429. */
export interface ClientRateLimit {
  /** Requests per window per address (WAF's minimum is 10). */
  readonly requests: number;
  /** The window WAF counts over: 60, 120, 300 or 600 seconds. */
  readonly windowSeconds: 60 | 120 | 300 | 600;
}

/** The managed rules of the common rule set that only count (never block), and why. */
export const COUNTED_COMMON_RULES: Readonly<Record<string, string>> = {
  // The rule blocks bodies over 8 KB. The API's JSON bodies are its own to bound (a
  // basket of many lines, addMany) and WAF inspects only the first 16 KB of a body at
  // CloudFront anyway; counting keeps the metric without refusing a real order.
  SizeRestrictions_BODY: 'the API bounds its own JSON bodies; a large basket must not be refused',
};

/** Stripe's webhook (functions/internal/cardpay): signed deliveries the rate rule leaves alone. */
export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe';

/** A byte match on the request's path, untransformed. */
const uriMatch = (positionalConstraint: string, searchString: string): wafv2.CfnWebACL.ByteMatchStatementProperty => ({
  fieldToMatch: { uriPath: {} },
  positionalConstraint,
  searchString,
  textTransformations: [{ priority: 0, type: 'NONE' }],
});

/** The JSON sentence of the WAF's 429, as the local edge's (functions/internal/edge/ratelimit.go). */
export const TOO_MANY_MESSAGE = 'Too many requests from your address: please wait a minute and try again.';

/** Inputs of {@link ShopWebAcl}. */
export interface ShopWebAclProps {
  readonly limit: ClientRateLimit;
  /** Metric name prefix, e.g. tradeshop-staging. */
  readonly metricPrefix: string;
}

/**
 * The distribution's AWS WAF web ACL (scope CLOUDFRONT, so it must be created in
 * us-east-1): a rate-based rule per client IP on /api/* (but Stripe's webhook) that answers 429 with
 * Retry-After, then AWS's managed common rule set (with {@link COUNTED_COMMON_RULES} only
 * counting). Everything else is allowed.
 */
export class ShopWebAcl extends Construct {
  public readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ShopWebAclProps) {
    super(scope, id);
    const { requests, windowSeconds } = props.limit;
    if (!(Number.isInteger(requests) && requests >= 10)) throw new Error(`${this.node.path}: limit.requests must be a whole number of at least 10`);
    if (![60, 120, 300, 600].includes(windowSeconds)) throw new Error(`${this.node.path}: limit.windowSeconds must be 60, 120, 300 or 600`);
    const visibility = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `${props.metricPrefix}-${name}`,
    });
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Wholesale trade shop - per-address limit on /api/ and the AWS common rule set',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('all'),
      customResponseBodies: {
        TooMany: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ error: TOO_MANY_MESSAGE }) },
      },
      rules: [
        {
          name: 'ApiRatePerIp',
          priority: 0,
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'TooMany',
                responseHeaders: [{ name: 'Retry-After', value: '60' }],
              },
            },
          },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: requests,
              evaluationWindowSec: windowSeconds,
              // Every /api/ path but Stripe's webhook: Stripe delivers a shop's events from
              // a few addresses, in bursts after an outage, and each delivery is signed
              // (the endpoint refuses any other); a 429 would only delay payments.
              scopeDownStatement: {
                andStatement: {
                  statements: [
                    { byteMatchStatement: uriMatch('STARTS_WITH', '/api/') },
                    { notStatement: { statement: { byteMatchStatement: uriMatch('EXACTLY', STRIPE_WEBHOOK_PATH) } } },
                  ],
                },
              },
            },
          },
          visibilityConfig: visibility('api-rate-per-ip'),
        },
        {
          name: 'AWSManagedRulesCommonRuleSet',
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: Object.keys(COUNTED_COMMON_RULES).map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          visibilityConfig: visibility('common-rule-set'),
        },
      ],
    });
  }
}

/** Inputs of {@link EdgeStack}. */
export interface EdgeStackProps extends StackProps {
  readonly limit: ClientRateLimit;
  readonly metricPrefix: string;
}

/**
 * The stage's us-east-1 stack: a CLOUDFRONT-scope web ACL can only live there, while the
 * shop stack lives in the stage's region. The shop stack reads the ACL's ARN through a
 * CDK cross-region reference (both stacks have crossRegionReferences on).
 */
export class EdgeStack extends Stack {
  public readonly webAcl: ShopWebAcl;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    if (this.region !== 'us-east-1') throw new Error(`${id}: a CloudFront web ACL must be in us-east-1, not ${this.region}`);
    this.webAcl = new ShopWebAcl(this, 'Waf', { limit: props.limit, metricPrefix: props.metricPrefix });
  }
}
