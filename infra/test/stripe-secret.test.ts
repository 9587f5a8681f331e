import { Stack, aws_dynamodb as dynamodb, aws_secretsmanager as secretsmanager } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { loadEndpoints, loadJob, type Endpoint } from '../lib/endpoints';
import { OrderSweeper } from '../lib/order-sweeper';
import { ShopApi } from '../lib/shop-api';
import { STAGES } from '../lib/shop-stack';
import { SECRET_READ_ACTIONS, actionsOf, fakeLambdaDir, rawFile, resources, stackTemplate, type Statement } from './fixtures';

// The Stripe secret of card payments (docs/payments.md "Going live"): one per stage,
// created without a value of ours, read at cold start by the functions endpoints.json
// gives stripeSecret and by no other.

describe.each(STAGES)('the Stripe secret in the %s stack', (stage) => {
  const t = stackTemplate(stage);

  it('is created with a placeholder (an empty secret_key, a random webhook_secret), never a value of ours, and output for the first deploy', () => {
    const secrets = Object.entries(resources(t, 'AWS::SecretsManager::Secret')).filter(([id]) => id.startsWith('StripeSecret'));
    expect(secrets).toHaveLength(1);
    const props = secrets[0]![1].Properties;
    expect(props).not.toHaveProperty('SecretString');
    expect(props['GenerateSecretString']).toMatchObject({ SecretStringTemplate: '{"secret_key":""}', GenerateStringKey: 'webhook_secret' });
    expect(props['Description']).toContain(`(${stage})`);
    expect(t.findOutputs('StripeSecretArn')['StripeSecretArn']?.['Value']).toEqual({ Ref: secrets[0]![0] });
  });

  it('never reaches a function as text: no STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET or STRIPE_API_BASE anywhere', () => {
    for (const [id, fn] of Object.entries(resources(t, 'AWS::Lambda::Function'))) {
      const vars = Object.keys(fn.Properties['Environment']?.Variables ?? {});
      for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE']) expect(vars, id).not.toContain(name);
    }
  });
});

/** The functions the contract of issue 36 lets read the Stripe secret: the webhook, Pay now,
 * the back office's cancel and credit (which refund cards) and the sweeper (which sends the
 * refunds a crash left unsent). A new one is added here on purpose, or not at all. */
const MAY_READ_STRIPE = ['stripeWebhook', 'payOrder', 'adminOrderAction', 'adminOrderCredit', 'sweepOrders'];

describe('endpoints.json and the Stripe secret', () => {
  it('gives stripeSecret to no function outside the ones that call Stripe or check its events', () => {
    const given = [...rawFile.endpoints, ...rawFile.jobs].filter((f) => f.stripeSecret).map((f) => f.name);
    expect(given.filter((name) => !MAY_READ_STRIPE.includes(name))).toEqual([]);
  });

  const webhook = rawFile.endpoints.find((e) => e.name === 'stripeWebhook');
  it.skipIf(webhook === undefined)('deploys the webhook in group payments with the Stripe secret and no CSRF secret', () => {
    expect(webhook).toMatchObject({ group: 'payments', csrfSecret: false, stripeSecret: true, routes: ['POST /api/payments/stripe'] });
  });
});

describe('the functions with stripeSecret', () => {
  const table = (s: Stack) => new dynamodb.TableV2(s, 'T', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  // The webhook as the contract deploys it (its own Lambda in group payments, no CSRF
  // secret, the Stripe secret), and a cancel endpoint given the secret, beside the rest.
  const webhook: Endpoint = {
    name: 'stripeWebhook',
    group: 'payments',
    routes: [{ method: 'POST', path: '/api/payments/stripe' }],
    csrfSecret: false,
    stripeSecret: true,
    access: [{ actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], keys: ['STRIPEEVENT#*', 'USER#*'] }],
    memoryMB: 256,
    timeoutSeconds: 10,
    mediaBucket: false,
    publishBuild: false,
  };
  const endpoints = [
    ...loadEndpoints()
      .filter((e) => e.name !== 'stripeWebhook')
      .map((e) => (e.name === 'adminOrderAction' ? { ...e, stripeSecret: true } : e)),
    webhook,
  ];
  const build = (over: Partial<ConstructorParameters<typeof ShopApi>[2]> = {}) => {
    const s = new Stack();
    const stripeSecret = new secretsmanager.Secret(s, 'StripeSecret');
    const api = new ShopApi(s, 'Api', {
      endpoints,
      table: table(s),
      codeDir: fakeLambdaDir(),
      environment: {},
      throttle: { rateLimit: 10, burstLimit: 20 },
      csrfSecret: new secretsmanager.Secret(s, 'C'),
      originSecret: new secretsmanager.Secret(s, 'O'),
      stripeSecret,
      ...over,
    });
    return api;
  };
  const api = build();
  /** The function of endpoint name: its environment and every IAM statement on its role. */
  const fnOf = (name: string) => {
    const group = endpoints.find((e) => e.name === name)!.group;
    const t = Template.fromStack(api.groupStacks.get(group)!);
    const fns = resources(t, 'AWS::Lambda::Function');
    const [id, fn] = Object.entries(fns).find(([fid]) => fid.startsWith(name))!;
    const role = fn.Properties['Role']['Fn::GetAtt'][0];
    const statements = Object.values(resources(t, 'AWS::IAM::Policy'))
      .filter((p) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === role))
      .flatMap((p) => p.Properties['PolicyDocument'].Statement as Statement[]);
    return { id, vars: fn.Properties['Environment'].Variables as Record<string, unknown>, statements };
  };

  it('the webhook Lambda reads the Stripe secret, named in STRIPE_SECRET_ARN, and has no CSRF secret', () => {
    const { vars, statements } = fnOf('stripeWebhook');
    expect(vars).not.toHaveProperty('CSRF_SECRET');
    expect(vars['STRIPE_SECRET_ARN']).toBeDefined();
    const reads = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('secretsmanager:')));
    expect(reads).toHaveLength(1);
    expect(actionsOf(reads[0]!).sort()).toEqual(SECRET_READ_ACTIONS);
    // On that one secret, the one STRIPE_SECRET_ARN names.
    expect(reads[0]!.Resource).toEqual(vars['STRIPE_SECRET_ARN']);
  });

  it('an endpoint given stripeSecret reads it beside its CSRF secret; one without reads no secret', () => {
    const cancel = fnOf('adminOrderAction');
    expect(cancel.vars['STRIPE_SECRET_ARN']).toBeDefined();
    expect(cancel.vars['CSRF_SECRET']).toBeDefined();
    for (const name of ['search', 'orders', 'adminOrder']) {
      const other = fnOf(name);
      expect(other.vars, name).not.toHaveProperty('STRIPE_SECRET_ARN');
      expect(
        other.statements.flatMap(actionsOf).filter((a) => a.startsWith('secretsmanager:')),
        name,
      ).toEqual([]);
    }
  });

  it('refuses endpoints with stripeSecret and no secret, and a Stripe key passed as text', () => {
    expect(() => build({ stripeSecret: undefined })).toThrow(/stripeWebhook need the Stripe secret/);
    expect(() => build({ environment: { STRIPE_SECRET_KEY: 'sk_live_x' } })).toThrow(/must never reach a deployed function/);
    expect(() => build({ environment: { STRIPE_SECRET_ARN: 'arn:x' } })).toThrow(/added per function from its secret/);
  });

  it('the order sweeper reads the secret when its rights have stripeSecret (card refunds a crash left unsent), and needs it then', () => {
    const s = new Stack();
    const stripeSecret = new secretsmanager.Secret(s, 'StripeSecret');
    const rights = { ...loadJob('sweepOrders'), stripeSecret: true };
    const sweeper = new OrderSweeper(s, 'Sweeper', { table: table(s), codeDir: fakeLambdaDir(), environment: {}, rights, stripeSecret });
    const t = Template.fromStack(s);
    const fn = resources(t, 'AWS::Lambda::Function')[s.getLogicalId(sweeper.fn.node.defaultChild as never)]!;
    expect(fn.Properties['Environment'].Variables['STRIPE_SECRET_ARN']).toEqual({ Ref: s.getLogicalId(stripeSecret.node.defaultChild as never) });
    const actions = Object.values(resources(t, 'AWS::IAM::Policy')).flatMap((p) =>
      (p.Properties['PolicyDocument'].Statement as Statement[]).flatMap(actionsOf),
    );
    expect(actions.filter((a) => a.startsWith('secretsmanager:')).sort()).toEqual(SECRET_READ_ACTIONS);
    const bare = new Stack();
    expect(() => new OrderSweeper(bare, 'Sweeper', { table: table(bare), codeDir: fakeLambdaDir(), environment: {}, rights })).toThrow(
      /sweepOrders needs the Stripe secret/,
    );
  });
});
