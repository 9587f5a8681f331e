import { describe, expect, it } from 'vitest';
import { STAGES } from '../lib/shop-stack';
import { actionsOf, expectedStatements, rawFile, resources, stackTemplate, stageConfigs, tableStatements, testBuild, type Statement } from './fixtures';

describe.each(STAGES)('EmailSender in the %s stack', (stage) => {
  const t = stackTemplate(stage);
  const fns = resources(t, 'AWS::Lambda::Function');
  const senderId = Object.keys(fns).find((id) => id.includes('sendEmails'));
  const secrets = resources(t, 'AWS::SecretsManager::Secret');
  const smtpSecretId = Object.keys(secrets).find((id) => id.startsWith('SmtpSecret'));
  const statements = (): Statement[] => {
    const role = fns[senderId!]!.Properties['Role']['Fn::GetAtt'][0];
    return Object.values(resources(t, 'AWS::IAM::Policy'))
      .filter((p) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === role))
      .flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]);
  };

  it('runs sendEmails every minute, with no retries of a failed run (the next minute is the retry)', () => {
    expect(senderId).toBeDefined();
    const rules = Object.values(resources(t, 'AWS::Events::Rule')).filter((r) => JSON.stringify(r.Properties['Targets']).includes(senderId!));
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    expect(rules[0]!.Properties['Targets'][0].RetryPolicy).toEqual({ MaximumRetryAttempts: 0 });
    expect(fns[senderId!]!.Properties['Timeout']).toBe(60);
  });

  it("sends through SES's SMTP interface in the stage's region with STARTTLS, credentials from the SMTP secret by ARN", () => {
    const vars = fns[senderId!]!.Properties['Environment'].Variables;
    expect(vars).toMatchObject({
      SMTP_HOST: `email-smtp.${stageConfigs[stage].region}.amazonaws.com`,
      SMTP_PORT: '587',
      SMTP_TLS: 'starttls',
      STAGE: stage,
      BUILD_ID: testBuild,
      SMTP_SECRET_ARN: { Ref: smtpSecretId },
    });
    expect(vars).not.toHaveProperty('CSRF_SECRET');
    expect(vars).not.toHaveProperty('ORIGIN_SECRET');
    expect(JSON.stringify(vars)).not.toContain('resolve:secretsmanager'); // the ARN, never the value
  });

  it('creates the SMTP secret with no credentials in the template (set by hand, docs/infrastructure.md "Email")', () => {
    expect(smtpSecretId).toBeDefined();
    const props = secrets[smtpSecretId!]!.Properties;
    expect(props).not.toHaveProperty('SecretString');
    expect(props['GenerateSecretString']).toMatchObject({ SecretStringTemplate: JSON.stringify({ username: '' }), GenerateStringKey: 'password' });
  });

  it('may use the outbox (endpoints.json job sendEmails) and read the SMTP secret, and nothing else', () => {
    const job = rawFile.jobs.find((j) => j.name === 'sendEmails');
    expect(job).toBeDefined();
    expect(tableStatements(statements())).toEqual(expectedStatements(job!.access));
    const other = statements().filter((s) => !actionsOf(s).every((a) => a.startsWith('dynamodb:') || a.startsWith('logs:')));
    expect(other.flatMap(actionsOf).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
    for (const s of other) expect(s.Resource).toEqual({ Ref: smtpSecretId });
  });
});
