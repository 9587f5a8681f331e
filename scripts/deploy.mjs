// @ts-check
// The first deploy of a stage, as docs/infrastructure.md "First deploy" describes it: checks
// what can be checked offline, builds the Lambdas, synthesises the stage's stacks with the pinned
// CDK CLI, and prints every step in order with the commands to run.
//
//   scripts/deploy --stage staging|production --dry-run   offline: checks, synth, the plan
//   scripts/deploy --stage staging|production             the same, then the stage's Stripe
//                                                          keys checked, then `cdk deploy --all`
//                                                          (UNTESTED: no AWS account here)
//   … --lambda-dir DIR   built functions (default .local/lambda; built when missing)
//   … --out DIR          where the synthesised templates go (default infra/cdk.out)
//
// Before the synth it packs the repository (git archive of the working tree's tracked
// files) into .local/publish-source.zip: the source of the stage's publish build, which
// cdk deploy uploads as an asset (docs/infrastructure.md "Publishing from the back office").
//
// The dry-run runs in the test command for both stages. Any error ends the run with one
// line (`deploy: …`) and exit code 1; every failed check is named.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { capture, localBuildId, root, run, say } from './lib.mjs';
import { buildLambdas, defaultLambdaDir, lambdaNames } from './build-lambdas.mjs';
import { placeholderProblems, readShopConfig } from './build.mjs';

const usage = `usage: scripts/deploy --stage staging|production [--dry-run] [--lambda-dir DIR] [--out DIR]`;
const cdkBin = path.join(root, 'node_modules', '.bin', 'cdk');
/** The region CloudFront takes WAF web ACLs (and, later, certificates) from. */
const EDGE_REGION = 'us-east-1';

/** @returns {any} the file's JSON, whose shape each caller checks */
const readJson = (/** @type {string} */ file) => JSON.parse(readFileSync(file, 'utf8'));

/** The offline checks: the pinned CLI is installed, the stage is configured with a real
 * Firebase project. Answers the stage's config; throws naming every problem.
 * @param {string} stage
 * @param {{ cdkJson?: any, pkg?: any }} [files] cdk.json and package.json, as parsed
 * @returns {{ region: string, firebaseProjectId: string }} */
export function checkPrerequisites(stage, { cdkJson = readJson(path.join(root, 'cdk.json')), pkg = readJson(path.join(root, 'package.json')) } = {}) {
  /** @type {string[]} */
  const problems = [];
  const pinned = pkg.devDependencies?.['aws-cdk'];
  const cliPkg = path.join(root, 'node_modules', 'aws-cdk', 'package.json');
  if (!pinned) problems.push('package.json pins no aws-cdk devDependency (the CDK CLI)');
  else if (!existsSync(cliPkg)) problems.push(`the CDK CLI aws-cdk ${pinned} is not installed: run npm ci`);
  else if (readJson(cliPkg).version !== pinned) problems.push(`node_modules has aws-cdk ${readJson(cliPkg).version}, package.json pins ${pinned}: run npm ci`);
  const config = cdkJson.context?.stages?.[stage];
  if (!['staging', 'production'].includes(stage)) problems.push(`--stage must be staging or production, not "${stage}"`);
  else if (!config) problems.push(`cdk.json has no context stages.${stage}`);
  else {
    if (!config.firebaseProjectId) problems.push(`cdk.json stages.${stage}.firebaseProjectId is not set`);
    else if (/^demo-/i.test(config.firebaseProjectId))
      problems.push(
        `cdk.json stages.${stage}.firebaseProjectId "${config.firebaseProjectId}" is a demo project: the deployed functions would accept no real sign-in`,
      );
    if (!config.region) problems.push(`cdk.json stages.${stage}.region is not set`);
  }
  if (problems.length) throw new Error(`not ready to deploy ${stage}: ${problems.join('; ')}`);
  return config;
}

/** The events the Stripe webhook endpoint is registered for (docs/payments.md "Events"):
 * the ones POST /api/payments/stripe handles. */
export const STRIPE_WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'refund.created',
  'refund.updated',
  'refund.failed',
  'charge.refund.updated',
];

/** The Stripe API version the functions' stripe-go speaks (v84.4.1): the webhook endpoint
 * must be registered with it, as stripe-go refuses an event of another version. */
export const STRIPE_API_VERSION = '2026-02-25.clover';

/** What is wrong with a stage's Stripe secret (its SecretString, JSON {"secret_key",
 * "webhook_secret"}), one sentence each: production takes live keys only and staging test
 * keys only, so a test key never takes a real order's money for nothing and a live one never
 * charges a real card from staging. A secret_key still empty (the placeholder the stack
 * creates) is no problem: card payment is off until it is set. Never names a key's value.
 * @param {string} stage staging or production
 * @param {string} secretString
 * @returns {string[]} */
export function stripeKeyProblems(stage, secretString) {
  /** @type {{ secret_key?: unknown, webhook_secret?: unknown }} */
  let secret;
  try {
    secret = JSON.parse(secretString);
  } catch {
    return [`the ${stage} Stripe secret is not JSON {"secret_key","webhook_secret"}`];
  }
  if (secret === null || typeof secret !== 'object') return [`the ${stage} Stripe secret is not JSON {"secret_key","webhook_secret"}`];
  const key = typeof secret.secret_key === 'string' ? secret.secret_key : '';
  if (key === '') return [];
  /** @type {string[]} */
  const problems = [];
  const mode = /^(sk|rk)_(live|test)_\S+$/.exec(key)?.[2];
  if (!mode) problems.push(`the ${stage} Stripe secret_key is not a Stripe secret or restricted key (sk_live_…, rk_live_…, sk_test_…, rk_test_…)`);
  else if (stage === 'production' && mode === 'test')
    problems.push('the production Stripe secret_key is a test-mode key: production takes real payments, so it needs a live key (sk_live_…)');
  else if (stage !== 'production' && mode === 'live')
    problems.push(`the ${stage} Stripe secret_key is a live-mode key: ${stage} must never charge a real card, so it needs a test key (sk_test_…)`);
  const webhook = typeof secret.webhook_secret === 'string' ? secret.webhook_secret : '';
  if (!/^whsec_\S+$/.test(webhook))
    problems.push(`the ${stage} Stripe webhook_secret is not the webhook endpoint's signing secret (whsec_…): every event would be refused`);
  return problems;
}

/** The stage's Stripe secret as it is in AWS now (the shop stack's StripeSecretArn output,
 * then its value), or null before the stack's first deploy. Reads through the AWS CLI with
 * the caller's credentials; only a real deploy calls it.
 * @param {string} stackName
 * @param {string} region
 * @returns {Promise<string | null>} */
async function deployedStripeSecret(stackName, region) {
  let arn;
  try {
    arn = (
      await capture('aws', [
        'cloudformation',
        'describe-stacks',
        '--region',
        region,
        '--stack-name',
        stackName,
        '--query',
        "Stacks[0].Outputs[?OutputKey=='StripeSecretArn'].OutputValue",
        '--output',
        'text',
      ])
    ).trim();
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT')
      throw new Error("the AWS CLI (aws) is needed to check the stage's Stripe keys before a deploy");
    return null; // no stack yet: its first deploy creates the secret with the placeholder
  }
  if (!arn || arn === 'None') return null;
  return capture('aws', ['secretsmanager', 'get-secret-value', '--region', region, '--secret-id', arn, '--query', 'SecretString', '--output', 'text']);
}

/** Where the publish build's source is packed before the synth. */
export const publishSourcePath = path.join(root, '.local', 'publish-source.zip');

/** Packs the repository at dir into a zip at out, as the publish build runs it: the
 * tracked files of the working tree (a commit `git stash create` makes of the uncommitted
 * changes, else HEAD), so the build runs the code being deployed, without node_modules,
 * .local or any export. Answers what was packed (a commit id).
 * @param {string} out
 * @param {string} [dir]
 * @returns {Promise<string>} */
export async function packPublishSource(out, dir = root) {
  const git = (/** @type {string[]} */ args) => capture('git', args, { cwd: dir }).then((s) => s.trim());
  let tree;
  try {
    tree = (await git(['stash', 'create'])) || (await git(['rev-parse', 'HEAD']));
  } catch (err) {
    throw new Error(`the publish build's source is packed with git archive, and ${dir} is not a git work tree with a commit (${err.message})`);
  }
  mkdirSync(path.dirname(out), { recursive: true });
  await run('git', ['archive', '--format=zip', '-o', out, tree], { cwd: dir });
  return tree;
}

/** The stacks of a synthesised cloud assembly: [{ name, region }], in deploy order
 * (the edge stack, which the shop stack depends on, first).
 * @param {string} outDir */
export function stacksOf(outDir) {
  /** @type {{ artifacts: Record<string, { type: string, displayName?: string, environment: string, dependencies?: string[] }> }} */
  const { artifacts } = readJson(path.join(outDir, 'manifest.json'));
  const stacks = Object.entries(artifacts)
    .filter(([, a]) => a.type === 'aws:cloudformation:stack')
    .map(([id, a]) => ({ name: a.displayName ?? id, region: a.environment.split('/').pop() ?? '', deps: a.dependencies ?? [] }));
  return stacks.sort((a, b) => (a.deps.some((d) => d.startsWith(b.name)) ? 1 : b.deps.some((d) => d.startsWith(a.name)) ? -1 : 0));
}

/** The steps of a first deploy, each a title and the commands (or what to do by hand).
 * @param {{ stage: string, config: { region: string, firebaseProjectId: string }, stacks: { name: string, region: string }[], lambdaDir: string }} deploy
 * @returns {[string, string[]][]} */
export function firstDeploySteps({ stage, config, stacks, lambdaDir }) {
  // The shop stack is the one in the stage's region; the others (the web ACL, the CloudFront alarm) are in us-east-1.
  const shopStack = stacks.find((s) => !/-Edge(Alarms)?$/.test(s.name))?.name ?? `TradeShop-${stage}`;
  const region = config.region;
  const regions = [...new Set([region, EDGE_REGION])];
  const out = (/** @type {string} */ name) => `<${shopStack} output ${name}>`;
  return [
    ['CDK bootstrap (once per account and region; needs AWS credentials)', [`npx cdk bootstrap ${regions.map((r) => `aws://ACCOUNT_ID/${r}`).join(' ')}`]],
    [
      `Firebase project ${config.firebaseProjectId} (by hand, in the Firebase console)`,
      [
        'create it (or use the existing one), enable Authentication > Sign-in method > Email/Password',
        'note its Web API key and auth domain: the release needs them (NEXT_PUBLIC_FIREBASE_API_KEY, NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN)',
        `after step 4: Authentication > Settings > Authorised domains: add the host of ${out('SiteUrl')} (and the custom domain, if any); for production, remove localhost`,
      ],
    ],
    ['Build the Lambdas (linux/arm64)', [`node scripts/build-lambdas.mjs${lambdaDir === defaultLambdaDir ? '' : ` ${path.relative(root, lambdaDir)}`}`]],
    [
      `Deploy the stacks (${stacks.map((s) => `${s.name} in ${s.region}`).join(', then ')})`,
      [
        `npx cdk diff --all -c stage=${stage} -c build=$(git rev-parse --short HEAD)`,
        `npx cdk deploy --all -c stage=${stage} -c build=$(git rev-parse --short HEAD) --outputs-file .local/cdk-outputs-${stage}.json`,
        'secrets: CsrfSecret and OriginSecret are generated by the stack in Secrets Manager (rotate: put a new value, deploy again); SmtpSecret and StripeSecret are set by hand (next steps)',
        `alarms: confirm the two "AWS Notification - Subscription Confirmation" emails sent to operations.alarm_email of functions/config/shop.json (the alarm topics in ${region} and ${EDGE_REGION}); until then no alarm reaches anyone (docs/infrastructure.md "Monitoring")`,
      ],
    ],
    [
      `Email through Amazon SES in ${region} (by hand; docs/infrastructure.md "Email"): until then emails wait in the outbox`,
      [
        'verify the domain of contact.email in functions/config/shop.json (or that address) in SES, and request production access (leave the sandbox)',
        "create SES SMTP credentials, then put them in the stack's secret:",
        `aws secretsmanager put-secret-value --secret-id ${out('SmtpSecretArn')} --secret-string '{"username":"…","password":"…"}'`,
      ],
    ],
    [
      `Card payments through Stripe (by hand; docs/payments.md "Going live"): until then card payment is off`,
      [
        `in Stripe's dashboard (${stage === 'production' ? 'live mode: sk_live_…' : 'test mode: sk_test_…'}), register the webhook endpoint https://DOMAIN/api/payments/stripe (the host of ${out('SiteUrl')}) at API version ${STRIPE_API_VERSION} for the events ${STRIPE_WEBHOOK_EVENTS.join(', ')}`,
        "then put the secret key and the endpoint's signing secret in the stack's secret:",
        `aws secretsmanager put-secret-value --secret-id ${out('StripeSecretArn')} --secret-string '{"secret_key":"${stage === 'production' ? 'sk_live_' : 'sk_test_'}…","webhook_secret":"whsec_…"}'`,
        `every later deploy refuses ${stage === 'production' ? 'a test key in production' : 'a live key in staging'}`,
      ],
    ],
    [
      'Stack outputs to release variables',
      [
        `TABLE_NAME=${out('TableName')}  AWS_REGION=${region}`,
        `RELEASE_BUCKET=${out('SiteBucketName')}  RELEASE_DISTRIBUTION_ID=${out('DistributionId')}  RELEASE_KVS_ARN=${out('RouteRulesStoreArn')}`,
        `SITE_URL=${out('SiteUrl')}  (or https://your-domain with a siteOrigin in cdk.json)`,
        `NEXT_PUBLIC_FIREBASE_PROJECT_ID=${config.firebaseProjectId}  NEXT_PUBLIC_FIREBASE_API_KEY=…  NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN=…  SITE_VERSION=${stage}`,
      ],
    ],
    [
      'Load the catalogue into the deployed table (the seed catalogue until the catalogue import exists)',
      [
        `TABLE_NAME=${out('TableName')} AWS_REGION=${region} .local/bin/seed -allow-aws -media .local/seed-media`,
        `aws s3 sync .local/seed-media s3://${out('MediaBucketName')}/media/   (product images, served under /media/)`,
      ],
    ],
    ['Grant staff', ['not automated yet (a future scripts/staff): there is no staff role in the shop today']],
    [
      'The first release (with the variables of step 6; it refuses a loopback or http SITE_URL, a demo- project, the Auth emulator, shop.json placeholders)',
      ['scripts/release --target aws --dry-run   (needs a built export: the first run without --dry-run builds it)', 'scripts/release --target aws'],
    ],
    [
      `Publishing from the back office (the CodeBuild project ${out('PublishProjectName')}, which runs scripts/release --target aws on the deployed commit)`,
      [
        `put the Firebase Web API key in cdk.json stages.${stage}.firebaseApiKey (and firebaseAuthDomain if it is not ${config.firebaseProjectId}.firebaseapp.com), then deploy again: until then the back office's publish fails at once, saying so`,
        `its source is .local/publish-source.zip, which scripts/deploy packs (git archive) and cdk deploy uploads: every deploy publishes with the code it deploys`,
      ],
    ],
  ];
}

/** @param {string[]} argv @param {NodeJS.ProcessEnv} [env] */
export async function main(argv, env = process.env) {
  const { values: opt } = parseArgs({
    args: argv,
    options: {
      stage: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'lambda-dir': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (opt.help) return console.log(usage);
  if (!opt.stage) throw new Error(`--stage staging or --stage production is needed\n${usage}`);
  const stage = opt.stage;
  const config = checkPrerequisites(stage);
  say(
    'deploy',
    `${stage}: the pinned CDK CLI is installed; Firebase project ${config.firebaseProjectId}, region ${config.region} (and ${EDGE_REGION} for the edge stack)`,
  );

  const lambdaDir = path.resolve(opt['lambda-dir'] ?? defaultLambdaDir);
  const missing = lambdaNames().filter((n) => !existsSync(path.join(lambdaDir, n, 'bootstrap')));
  if (missing.length) {
    say('deploy', `${missing.length} Lambda(s) not built in ${path.relative(root, lambdaDir)}: building them`);
    await buildLambdas(lambdaDir);
  }
  const outDir = path.resolve(opt.out ?? path.join(root, 'infra', 'cdk.out'));
  const packed = await packPublishSource(publishSourcePath);
  say('deploy', `packed the publish build's source (${packed.slice(0, 12)}) into ${path.relative(root, publishSourcePath)}`);
  // build: the version every function's log lines carry (BUILD_ID, docs/operations.md).
  const cdkArgs = ['-c', `stage=${stage}`, '-c', `lambdaDir=${lambdaDir}`, '-c', `publishSource=${publishSourcePath}`, '-c', `build=${localBuildId()}`];
  // Offline: no account lookup, no instance metadata probe.
  const cdkEnv = { ...env, AWS_EC2_METADATA_DISABLED: 'true', CDK_DISABLE_VERSION_CHECK: '1' };
  say('deploy', `synthesising with ${cdkBin.replace(`${root}/`, '')} (${readJson(path.join(root, 'node_modules', 'aws-cdk', 'package.json')).version})`);
  await run(cdkBin, ['synth', '--quiet', '--no-notices', ...cdkArgs, '-o', outDir], { env: cdkEnv });
  const stacks = stacksOf(outDir);
  say('deploy', `synthesised ${stacks.map((s) => `${s.name} (${s.region})`).join(', ')} into ${path.relative(root, outDir) || '.'}`);

  const steps = firstDeploySteps({ stage, config, stacks, lambdaDir });
  const lines = [`First deploy of ${stage} (docs/infrastructure.md "First deploy"):`];
  steps.forEach(([title, cmds], i) => {
    lines.push(`${i + 1}. ${title}`);
    for (const c of cmds) lines.push(`     ${c}`);
  });
  const shop = placeholderProblems(readShopConfig());
  const alarmEmail = shop.filter((p) => p.startsWith('operations.alarm_email'));
  if (alarmEmail.length)
    lines.push('', `The deploy (step 4) will refuse until functions/config/shop.json operations.alarm_email is a real address: the alarms email it.`);
  if (shop.length) lines.push('', `The release (the last step) will refuse until functions/config/shop.json holds the shop's real details: ${shop.join('; ')}`);
  console.log(lines.join('\n'));
  if (opt['dry-run']) return console.log('\nDry-run: nothing was deployed.');
  // The deploy itself subscribes the alarm email to the alarm topics: an example address
  // would leave the stage's alarms emailing nobody.
  if (alarmEmail.length)
    throw new Error(
      `refusing to deploy ${stage}: ${alarmEmail.join('; ')}, so the stage's alarms would reach nobody: put a real address in functions/config/shop.json`,
    );

  // UNTESTED AGAINST AWS. The Stripe keys already set must be of the stage's mode: read
  // here, in a real deploy only (the dry-run reads nothing from AWS), never printed.
  const shopStack = stacks.find((s) => !/-Edge(Alarms)?$/.test(s.name));
  const stripeSecret = shopStack ? await deployedStripeSecret(shopStack.name, shopStack.region) : null;
  if (stripeSecret === null) say('deploy', `no ${stage} Stripe secret yet: the deploy creates it with a placeholder (card payment off until step 6)`);
  else {
    const problems = stripeKeyProblems(stage, stripeSecret);
    if (problems.length) throw new Error(`refusing to deploy ${stage}: ${problems.join('; ')} (docs/infrastructure.md "First deploy")`);
    say('deploy', `the ${stage} Stripe secret holds ${stage === 'production' ? 'live' : 'test'}-mode keys, or none yet`);
  }

  // The same CLI and context as the synth above.
  say('deploy', `cdk deploy --all -c stage=${stage}`);
  await run(
    cdkBin,
    ['deploy', '--all', '--require-approval', 'broadening', ...cdkArgs, '--outputs-file', path.join(root, '.local', `cdk-outputs-${stage}.json`)],
    { env: { ...env, CDK_DISABLE_VERSION_CHECK: '1' } },
  );
  say('deploy', `deployed; the stack outputs are in .local/cdk-outputs-${stage}.json: go on with steps 5 (SES), 6 (Stripe) and 7`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`deploy: ${String(err.message).replace(/\s*\n\s*/g, '; ')}`);
    process.exit(1);
  });
}
