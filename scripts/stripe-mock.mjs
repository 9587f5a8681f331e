// @ts-check
// The local Stripe API of the run, test and fault commands: stripe-mock (Stripe's own mock
// of its API, a Go module: github.com/stripe/stripe-mock, a tool of the functions module,
// so its version is the one pinned in functions/go.mod and go.sum). It answers every
// request stripe-go sends as Stripe would, checked against Stripe's OpenAPI description,
// and keeps no state and sends no webhooks (docs/payments.md "Locally and in tests"). It
// listens on 127.0.0.1 only: without -https-addr it would also open HTTPS on port 12112
// of every interface, so that listener is pinned to a port of loopback the system picks.
import path from 'node:path';
import { binDir, root, run, say, startService, waitForPort } from './lib.mjs';

/** The key and webhook secret the local stage runs with (the documented defaults of
 * scripts/run): stripe-mock takes any test key, and the local payment page signs its
 * events with this secret. */
export const LOCAL_STRIPE_ENV = { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: 'whsec_local' };

/** Where the built stripe-mock is. */
export const stripeMockBin = path.join(binDir, 'stripe-mock');

/** The arguments stripe-mock runs with: HTTP on 127.0.0.1:port, HTTPS (which nothing of
 * ours uses) on a loopback port the system picks rather than on *:12112.
 * @param {{ port: number }} options */
export function stripeMockArgs({ port }) {
  return ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:0'];
}

/** The Stripe environment a local edge (or a Go test) gets: the API base of the
 * stripe-mock at url, and the key and webhook secret, the caller's own where it set them.
 * @param {string} url
 * @param {NodeJS.ProcessEnv} [env] where STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET may be set */
export function stripeEnv(url, env = {}) {
  return {
    STRIPE_API_BASE: url,
    STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY || LOCAL_STRIPE_ENV.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET || LOCAL_STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
  };
}

/** Every STRIPE_* variable of env other than the ones stripeEnv sets, as undefined: spread
 * into a child's environment after env, so a caller's own Stripe settings (an ARN, a pause
 * of the webhook) never reach the local edge unasked.
 * @param {NodeJS.ProcessEnv} env */
export function unsetOtherStripeVariables(env) {
  const kept = ['STRIPE_API_BASE', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'];
  return Object.fromEntries(
    Object.keys(env)
      .filter((k) => k.startsWith('STRIPE_') && !kept.includes(k))
      .map((k) => [k, undefined]),
  );
}

/** Builds stripe-mock into .local/bin from the functions module's pinned version. */
export async function buildStripeMock() {
  say('setup', 'building stripe-mock (github.com/stripe/stripe-mock, pinned in functions/go.mod)');
  await run('go', ['build', '-o', stripeMockBin, 'github.com/stripe/stripe-mock'], { cwd: path.join(root, 'functions') });
}

/** Builds stripe-mock (unless build is false), starts it on 127.0.0.1:port and waits for
 * the port; answers { child, url }, url being what STRIPE_API_BASE is set to. stopAll
 * stops it.
 * @param {{ port: number, logFile?: string, build?: boolean }} options */
export async function startStripeMock({ port, logFile, build = true }) {
  if (build) await buildStripeMock();
  // PORT is stripe-mock's own fallback for its port: unset, so only the arguments count.
  const child = startService('stripe-mock', stripeMockBin, stripeMockArgs({ port }), { env: { PORT: undefined }, logFile });
  await waitForPort(port, { child, timeoutMs: 30000 });
  return { child, url: `http://127.0.0.1:${port}` };
}
