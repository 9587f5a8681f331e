import { describe, expect, it } from 'vitest';
import { STAGES } from '../lib/shop-stack';
import { SECRET_READ_ACTIONS, expectedStatements, rawFile, resources, stackTemplate, tableStatements, type Statement } from './fixtures';

describe.each(STAGES)('OrderSweeper in the %s stack', (stage) => {
  const t = stackTemplate(stage);
  const fns = resources(t, 'AWS::Lambda::Function');
  const sweeperId = Object.keys(fns).find((id) => id.includes('sweepOrders'));

  it('runs sweepOrders every minute, with no retries of a failed run (the next minute is the retry)', () => {
    expect(sweeperId).toBeDefined();
    const rules = Object.values(resources(t, 'AWS::Events::Rule')).filter((r) => JSON.stringify(r.Properties['Targets']).includes(sweeperId!));
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    const target = rules[0]!.Properties['Targets'][0];
    expect(target.Arn).toEqual({ 'Fn::GetAtt': [sweeperId, 'Arn'] });
    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
    expect(fns[sweeperId!]!.Properties['Timeout']).toBe(60);
  });

  it('may read pending records and give back what they hold (endpoints.json job sweepOrders), and nothing else', () => {
    const role = fns[sweeperId!]!.Properties['Role']['Fn::GetAtt'][0];
    const statements = Object.values(resources(t, 'AWS::IAM::Policy'))
      .filter((p) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === role))
      .flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]);
    const job = rawFile.jobs.find((j) => j.name === 'sweepOrders');
    expect(job).toBeDefined();
    expect(tableStatements(statements)).toEqual(expectedStatements(job!.access));
    // The Stripe secret only where endpoints.json gives the job stripeSecret (card refunds).
    expect(
      statements
        .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]))
        .filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('logs:'))
        .sort(),
    ).toEqual(job!.stripeSecret ? SECRET_READ_ACTIONS : []);
    const vars = fns[sweeperId!]!.Properties['Environment'].Variables;
    if (job!.stripeSecret) expect(vars['STRIPE_SECRET_ARN']).toEqual({ Ref: expect.stringMatching(/^StripeSecret/) });
    // The Stripe settings name the site (cardpay.ConfigFromEnv: SITE_ORIGIN in the cloud).
    if (job!.stripeSecret) expect(JSON.stringify(vars['SITE_ORIGIN'])).toContain('DomainName');
    else expect(vars).not.toHaveProperty('STRIPE_SECRET_ARN');
    expect(vars).not.toHaveProperty('CSRF_SECRET');
    expect(vars).not.toHaveProperty('ORIGIN_SECRET');
  });
});
