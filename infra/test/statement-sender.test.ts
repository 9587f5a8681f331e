import { describe, expect, it } from 'vitest';
import { STAGES } from '../lib/shop-stack';
import { expectedStatements, rawFile, resources, stackTemplate, tableStatements, type Statement } from './fixtures';

describe.each(STAGES)('StatementSender in the %s stack', (stage) => {
  const t = stackTemplate(stage);
  const fns = resources(t, 'AWS::Lambda::Function');
  const id = Object.keys(fns).find((k) => k.includes('statements'));

  it('runs statements at 06:00 UTC every day (statements on the 1st, reminders daily), Lambda trying a failed run twice more', () => {
    expect(id).toBeDefined();
    const rules = Object.values(resources(t, 'AWS::Events::Rule')).filter((r) => JSON.stringify(r.Properties['Targets']).includes(id!));
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties).toMatchObject({ ScheduleExpression: 'cron(0 6 * * ? *)', State: 'ENABLED' });
    expect(rules[0]!.Properties['Targets'][0].Arn).toEqual({ 'Fn::GetAtt': [id, 'Arn'] });
    const invokeConfigs = Object.values(resources(t, 'AWS::Lambda::EventInvokeConfig')).filter((c) => JSON.stringify(c.Properties).includes(id!));
    expect(invokeConfigs).toHaveLength(1);
    expect(invokeConfigs[0]!.Properties['MaximumRetryAttempts']).toBe(2);
    expect(fns[id!]!.Properties['Timeout']).toBe(600);
  });

  it('may read the accounts and their documents and queue an email (endpoints.json job statements), and nothing else', () => {
    const role = fns[id!]!.Properties['Role']['Fn::GetAtt'][0];
    const statements = Object.values(resources(t, 'AWS::IAM::Policy'))
      .filter((p) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === role))
      .flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]);
    const job = rawFile.jobs.find((j) => j.name === 'statements');
    expect(job).toBeDefined();
    expect(tableStatements(statements)).toEqual(expectedStatements(job!.access));
    expect(
      statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('logs:')),
    ).toEqual([]);
    const vars = fns[id!]!.Properties['Environment'].Variables;
    expect(JSON.stringify(vars['SITE_ORIGIN'])).toContain('DomainName');
    expect(vars).not.toHaveProperty('CSRF_SECRET');
    expect(vars).not.toHaveProperty('ORIGIN_SECRET');
  });
});
