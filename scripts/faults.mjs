// @ts-check
// The fault suite of the test command (issue 23), run by scripts/test.mjs as its own step
// after the end-to-end tests; it is not a *.test.mjs, so `node --test scripts/*.test.mjs`
// never runs it. It is self-contained: its own DynamoDB Local, on disk in a temp dir (so a
// kill -9 loses only what the engine had not made durable), seeded with a part of the test
// run's catalogue, and its own local edge (the built .local/bin/local) serving the release folder the
// end-to-end step serves, and its own maildev (the edge's SMTP server). It reuses the test
// run's Auth emulator.
//
//   A. Store paused: SIGSTOP of the store; every /api endpoint answers within
//      STORE_TIMEOUT_MS + 1 s, 503 with the sentence where it needs the store; the basket
//      page in headless Chromium shows its error with Try again; after SIGCONT the basket
//      loads and an add works.
//   B. kill -9: 20 buyers place orders at once while the edge and, separately, the store
//      are killed with SIGKILL at random points and restarted; then the recovery command
//      runs and ordercheck reads the table: every acknowledged order exists, stock + units
//      ordered = initial stock for every product, the coupon's used count = the orders
//      that carry it (and no more than its limit), every order has its VAT invoice and the
//      invoice numbers run 1 to N with no gap or repeat, each on its order. Two staff
//      cancel orders meanwhile (the second again, at once, orders the first just sent):
//      every cancellation answered 200 is cancelled, with what it held given back and
//      one credit note, and ordercheck finds every credit note invariant holding
//      (numbers 1 to N, each on its order, crediting what was invoiced). Meanwhile a
//      quick-order buyer adds 90 lines at a time (one put of the basket): each line then
//      holds every add acknowledged and nothing of one refused.
//   C. Mail server stopped: the suite's own maildev (the edge sends the shop's emails to
//      it) is killed with SIGKILL, buyers place orders through the edge (each must
//      succeed), maildev is started again on the same ports, and within MAIL_WAIT_MS the
//      inbox holds each order's confirmation (X-Outbox-Id "{order}/confirmation", to the
//      buyer, naming the order) exactly once, and still once a few sends later.
//   D. Catalogue import killed. While buyers keep ordering one product P, a catalogue
//      import (every price up, every stock figure set to IMPORT_STOCK, IMPORT_NEW new products)
//      is killed with SIGKILL part-way through its writes, then run again to the end:
//      no product is missing or doubled, every row reads as the file says, and P's stock
//      is IMPORT_STOCK less the units ordered after the import read it (bounded by the orders
//      acknowledged after the first run started and those sent after the kill): its
//      figure was applied once, and no order's units were given back.
//   E. Payments under kill -9: six buyers (four approved for credit and on account, two
//      pro-forma) place orders; then two staff record payments against their accounts
//      (allocated oldest first, by hand, or recorded unallocated and then allocated by
//      both at the same moment) while a third cancels their orders, and the edge and the
//      store are killed with SIGKILL as in B; after recover, every payment answered 200
//      is in the table, every cancellation answered 200 is done, and ordercheck finds
//      every account keeping the money invariants (payments.AccountProblems: balance,
//      ledger, allocations, credit on account, refunds, owed; docs/invoices.md "Payments").
//   F. A card payment's event under kill -9 (docs/payments.md "Events"): a buyer places a
//      card order and presses Pay now; the edge is started with STRIPE_WEBHOOK_PAUSE_MS
//      (the local stage's pause between recording an event and applying it), a signed
//      payment_intent.succeeded for the order is delivered, and once its record
//      (STRIPEEVENT#{id}) is in the table the edge is killed with SIGKILL inside the pause;
//      restarted, it gets the same event again (Stripe's retry) and once more: one card
//      payment is recorded for the PaymentIntent, allocated to the invoice once, the order
//      is paid, the event is marked applied, and ordercheck finds the money invariants.
//   G. A delivery's allocation under kill -9 (docs/forward-orders.md "Receiving and
//      allocation"): a product is made forward, eight buyers (half on account) forward-order
//      it, staff record a short delivery and apply it, and the edge is killed with SIGKILL
//      at a random moment of the apply; restarted, the apply is sent again and answers the
//      delivery applied. Then, read from the table: per line open + allocated + cancelled =
//      ordered, Σ allocated = the receipt's count ≤ received, each forward order's units on
//      its one release order (invoiced after recover), and the stock up by the leftover once.
//
// Environment: FIREBASE_AUTH_EMULATOR_HOST (required), FIREBASE_PROJECT_ID
// (demo-tradeshop), FAULTS_SITE_DIR (.local/release/site), FAULTS_STORE_TIMEOUT_MS (1500),
// FAULTS_ROUNDS (ABCDEFG: the rounds to run, by letter; B, E and F need no site build, so
// FAULTS_ROUNDS=E with FAULTS_SITE_DIR a folder holding an index.html runs E alone),
// FAULTS_STRIPE_API_BASE (the test run's stripe-mock; without it the suite starts its own).
// The edges get the local Stripe key and webhook secret (scripts/stripe-mock.mjs).
// It exits 1 when a check fails, naming each one.
import { mkdirSync, mkdtempSync, existsSync, rmSync } from 'node:fs';
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { crc32, deflateSync } from 'node:zlib';
import path from 'node:path';
import { binDir, capture, freePort, localDir, root, run, say, startService, stopAll, waitForPort } from './lib.mjs';
import { startDynamoDBLocal } from './dynamodb-local.mjs';
import { maildevEmails, startMaildev } from './maildev.mjs';
import { LOCAL_STRIPE_ENV, startStripeMock, stripeEnv, unsetOtherStripeVariables } from './stripe-mock.mjs';
import { csvLine, parseCSV } from '../site/lib/csv.mjs';

const authHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const projectId = process.env.FIREBASE_PROJECT_ID || 'demo-tradeshop';
const siteDir = process.env.FAULTS_SITE_DIR || path.join(localDir, 'release', 'site');
const timeoutMs = Number(process.env.FAULTS_STORE_TIMEOUT_MS || 1500);
const rounds = (process.env.FAULTS_ROUNDS || 'ABCDEFG').toUpperCase();
const unavailable = "The shop's database did not answer in time. Please try again in a moment.";
const BUYERS = 20;
const ORDERS_EACH = 3;
const MAX_ORDERS_EACH = 12;
const COUPON = 'FAULTS1';
const SUITE_LIMIT_MS = 420_000;
const MAIL_BUYERS = 4;
// How long C waits for the emails once maildev is back: the edge sends every 2 s, and a
// message that failed a few times waits its back-off (5 s, 10 s, 20 s, …) first.
const MAIL_WAIT_MS = 90_000;
const SEED_PRODUCTS = 600;
const IMPORT_NEW = 1500;
const IMPORT_BUYERS = 4;
const IMPORT_STOCK = 100_000;
// The quick-order buyer of B: adds of this many lines (over one UpdateItem's 80), at most
// this many while the kills go on.
const QUICK_LINES = 90;
const MAX_QUICK_ADDS = 30;
// E: the paying buyers (the first PAY_ON_ACCOUNT on account, the rest pro-forma) and the
// orders each places before the kills.
const PAY_BUYERS = 6;
const PAY_ON_ACCOUNT = 4;
const PAY_ORDERS_EACH = 3;
// F: how long the edge waits between recording a Stripe event and applying it (the window
// the kill lands in), the webhook secret the edges check events with, and the API version
// stripe-go (v84) takes events of.
const CARD_PAUSE_MS = 3000;
const STRIPE_WEBHOOK_SECRET = LOCAL_STRIPE_ENV.STRIPE_WEBHOOK_SECRET;
const STRIPE_API_VERSION = '2026-02-25.clover';

const checks = [];
function check(name, ok, detail = '') {
  checks.push({ name, ok, detail });
  say('faults', `${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rand = (lo, hi) => lo + Math.random() * (hi - lo);

let scratch;
let store; // { child } of the current DynamoDB Local
let edge; // the current edge child
let storePort;
let edgePort;
let storeEnv;
let mail; // { child, url } of the current maildev
let mailPorts; // [smtp, web]
let shop;
let toolEnv;

async function startStore() {
  store = await startDynamoDBLocal({ port: storePort, dataDir: path.join(scratch, 'dynamodb'), logFile: path.join(scratch, 'dynamodb.log') });
}

async function startMail() {
  mail = await startMaildev({ smtpPort: mailPorts[0], webPort: mailPorts[1], dir: path.join(scratch, 'maildev'), logFile: path.join(scratch, 'maildev.log') });
}

/** Starts the edge on edgePort, with extra settings (round F's webhook pause) if given. */
async function startEdge(extra = {}) {
  edge = startService('edge', path.join(binDir, 'local'), [], {
    env: { ...storeEnv, PORT: String(edgePort), SITE_DIR: siteDir, MEDIA_DIR: path.join(scratch, 'media'), ...extra },
    logFile: path.join(scratch, 'edge.log'),
  });
  await waitForPort(edgePort, { child: edge });
}

async function kill9(child) {
  try {
    process.kill(child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  await child.exited;
}

/** Signs a new user up in the Auth emulator. */
async function emulatorUser(i) {
  const email = `faults-${i}-${randomBytes(4).toString('hex')}@shop.test`;
  const res = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct-horse-1', returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator sign-up answered ${res.status}`);
  const b = /** @type {{ localId: string, idToken: string }} */ (await res.json());
  return { uid: b.localId, token: b.idToken, email, password: 'correct-horse-1' };
}

/** One API call as the site makes it (token in the body, CSRF header and cookie, same
 * origin). Answers { status, body, ms }, or { status: 0, error } when no answer came. */
async function api(buyer, method, p, body, { limitMs = 15000, headers: extra = {} } = {}) {
  // A Buffer body is sent as it is (a picture), anything else as JSON.
  const raw = Buffer.isBuffer(body);
  /** @type {Record<string, string>} */
  const headers = { 'content-type': raw ? 'image/png' : 'application/json', 'sec-fetch-site': 'same-origin', origin: shop, ...extra };
  if (buyer?.csrf) {
    headers[buyer.csrf.header] = buyer.csrf.token;
    headers.cookie = buyer.csrf.cookie;
  }
  if (buyer) headers.authorization = `Bearer ${buyer.token}`;
  const t0 = performance.now();
  try {
    const res = await fetch(shop + p, {
      method,
      headers,
      body: body === undefined || raw ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(limitMs),
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: json ?? text, ms: performance.now() - t0 };
  } catch (err) {
    return { status: 0, error: err.cause?.code ?? err.name ?? String(err), ms: performance.now() - t0 };
  }
}

/** Gets the buyer a CSRF token and its cookie (CSRF_SECRET is fixed, so they outlive an
 * edge restart). */
async function csrfFor(buyer) {
  const res = await fetch(shop + '/api/csrf', { headers: { 'sec-fetch-site': 'same-origin' } });
  if (!res.ok) throw new Error(`GET /api/csrf answered ${res.status}`);
  const b = /** @type {{ token: string, header: string }} */ (await res.json());
  buyer.csrf = {
    token: b.token,
    header: b.header,
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
}

const billing = {
  company: 'Fault Test Ltd',
  contact: 'Pat Doe',
  payment_method: 'proforma',
  address: { line1: '1 High St', town: 'Exampleton', postcode: 'EX1 2AB' },
};

/** Retries a call while the edge or store is down (no answer, or 5xx), as a buyer
 * pressing the button again would, until it answers or untilMs passes. */
async function persist(call, untilMs = 30000) {
  const end = Date.now() + untilMs;
  let r;
  do {
    r = await call();
    if (r.status !== 0 && r.status < 500) return r;
    await sleep(rand(200, 600));
  } while (Date.now() < end);
  return r;
}

async function must(what, r, ok = (s) => s >= 200 && s < 300) {
  if (!ok(r.status)) throw new Error(`${what} answered ${r.status || r.error}: ${JSON.stringify(r.body ?? '').slice(0, 200)}`);
  return r;
}

// ---------------------------------------------------------------- A. store paused

/** A PNG of side × side pixels in one colour (8-bit RGB), for the picture upload. */
function solidPNG(side) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.alloc(1 + 3 * side); // filter byte 0, then the pixels
  for (let x = 0; x < side; x++) row.set([40, 120, 200], 1 + 3 * x);
  const pixels = Buffer.concat(Array.from({ length: side }, () => row));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** A products file that changes nothing: the exported row of sku, its stock cell empty
 * (the stock is left as it is). */
async function unchangedImportFile(staff, sku) {
  const r = await must('catalogue export', await api(staff, 'GET', '/api/admin/catalogue/export?file=products'));
  const [header, ...rows] = parseCSV(r.body);
  const row = rows.find((x) => x[0] === sku);
  if (!row) throw new Error(`the catalogue export has no row for ${sku}`);
  row[header.indexOf('stock')] = '';
  return `${csvLine(header)}\n${csvLine(row)}\n`;
}

/** The catalogue import's job of a products file alone (catimport.JobOf), so an apply
 * gets past its job check to the store. */
function importJob(products, full = false) {
  const bytes = Buffer.from(products, 'utf8');
  return createHash('sha256').update(`full=${full}\x00${bytes.length}\x00`).update(bytes).update('\x00').digest('hex').slice(0, 24);
}

/** One well-formed request per route of endpoints.json; products is a catalogue import's
 * products file. */
function requests(buyer, sku, staff, products) {
  const t = buyer.token;
  const s = staff.token;
  const coupon = { id: 'FAULTSA', description: 'Fault suite', kind: 'percent', percent: 5, version: 0 };
  const importFile = { token: s, products: { name: 'faults.csv', text: products }, full: false, images: {} };
  return {
    'GET /api/admin/me': { as: staff },
    'GET /api/admin/orders': { as: staff },
    'GET /api/admin/orders/{id}': { as: staff, path: '/api/admin/orders/TS-100001' },
    'POST /api/admin/orders/{id}/action': { as: staff, path: '/api/admin/orders/TS-100001/action', body: { token: s, action: 'confirm', version: 1 } },
    'POST /api/admin/orders/{id}/credit': {
      as: staff,
      path: '/api/admin/orders/TS-100001/credit',
      body: { token: s, version: 1, lines: [{ line: 0, units: 1 }], reason: 'Fault suite' },
    },
    'GET /api/admin/export': { as: staff, path: '/api/admin/export?from=2026-01-01&to=2026-01-31' },
    'GET /api/admin/accounts': { as: staff },
    'GET /api/admin/accounts/{uid}': { as: staff, path: `/api/admin/accounts/${buyer.uid}` },
    'POST /api/admin/accounts/{uid}': {
      as: staff,
      path: `/api/admin/accounts/${buyer.uid}`,
      body: { token: s, version: 1, approved_for_credit: false, dsc: '' },
    },
    'GET /api/admin/accounts/{uid}/ledger': { as: staff, path: `/api/admin/accounts/${buyer.uid}/ledger` },
    'POST /api/admin/accounts/{uid}/payments': {
      as: staff,
      path: `/api/admin/accounts/${buyer.uid}/payments`,
      body: { token: s, method: 'bank_transfer', date: new Date().toISOString().slice(0, 10), amount: 100, reference: 'Fault suite', allocate: 'none' },
    },
    'POST /api/admin/accounts/{uid}/payments/{id}/allocate': {
      as: staff,
      path: `/api/admin/accounts/${buyer.uid}/payments/PAY-000000000000/allocate`,
      body: { token: s },
    },
    'POST /api/admin/accounts/{uid}/refunds': {
      as: staff,
      path: `/api/admin/accounts/${buyer.uid}/refunds`,
      body: {
        token: s,
        source: 'PAY-000000000000',
        method: 'bank_transfer',
        date: new Date().toISOString().slice(0, 10),
        amount: 100,
        reference: 'Fault suite',
      },
    },
    // Credit hold (issue 35, item 5).
    'GET /api/admin/accounts/{uid}/credit-hold': { as: staff, path: `/api/admin/accounts/${buyer.uid}/credit-hold` },
    'POST /api/admin/accounts/{uid}/credit-hold/lift': {
      as: staff,
      path: `/api/admin/accounts/${buyer.uid}/credit-hold/lift`,
      body: { token: s, reason: 'Fault suite' },
    },
    'GET /api/admin/coupons': { as: staff },
    'POST /api/admin/coupons': { as: staff, body: { token: s, coupon } },
    'POST /api/admin/coupons/{id}': { as: staff, path: '/api/admin/coupons/FAULTSA', body: { token: s, coupon } },
    // Price groups (issue 37): each reads the store first.
    'GET /api/admin/price-groups': { as: staff },
    'POST /api/admin/price-groups': { as: staff, body: { token: s, id: 'faults', name: 'Fault suite', version: 0 } },
    'POST /api/admin/price-groups/{id}/import': {
      as: staff,
      path: '/api/admin/price-groups/faults/import',
      body: { token: s, csv: { name: 'faults.csv', text: 'applies_to,code,discount_percent\n' }, apply: false, version: 0 },
    },
    'GET /api/admin/price-groups/{id}/export': { as: staff, path: '/api/admin/price-groups/faults/export' },
    // Receiving forward deliveries (issue 38): each reads the store first (a list, the
    // products of the lines, the receipt).
    'GET /api/admin/receipts': { as: staff },
    'POST /api/admin/receipts': { as: staff, body: { token: s, lines: [{ sku: sku.sku, units: sku.pack_size }] } },
    'GET /api/admin/receipts/{id}': { as: staff, path: '/api/admin/receipts/RCV-000001' },
    'POST /api/admin/receipts/{id}/apply': { as: staff, path: '/api/admin/receipts/RCV-000001/apply', body: { token: s, allocations: [] } },
    'GET /api/admin/products/{sku}': { as: staff, path: `/api/admin/products/${sku.sku}` },
    // Forward products (issue 38): the marking ended (harmless should it land late: the
    // product is not forward), the forward products and their demand.
    'POST /api/admin/products/{sku}/forward': {
      as: staff,
      path: `/api/admin/products/${sku.sku}/forward`,
      body: { token: s, delivery_from: '', order_by: '', expected: 0, clear: true },
    },
    'GET /api/admin/forward': { as: staff },
    'GET /api/admin/forward/demand': { as: staff, path: `/api/admin/forward/demand?sku=${sku.sku}` },
    'GET /api/admin/forward/demand.csv': { as: staff, path: `/api/admin/forward/demand.csv?sku=${sku.sku}` },
    'POST /api/admin/products/{sku}/stock': {
      as: staff,
      path: `/api/admin/products/${sku.sku}/stock`,
      body: { token: s, mode: 'adjust', quantity: 1, reason: 'Fault suite' },
    },
    // This edge has no PUBLISH_DIR, as the cloud's Lambda: 501 with the sentence, at once.
    'GET /api/admin/catalogue/publish': { as: staff, expect: 501 },
    'POST /api/admin/catalogue/publish': { as: staff, body: { token: s }, expect: 501 },
    'POST /api/admin/catalogue/check': { as: staff, body: importFile },
    'POST /api/admin/catalogue/apply': { as: staff, body: { ...importFile, job: importJob(products) } },
    // The picture upload needs no store: published to this edge's media folder at once.
    'POST /api/admin/catalogue/images': { as: staff, path: '/api/admin/catalogue/images?name=faults.png', body: solidPNG(120) },
    'GET /api/admin/catalogue/export': { as: staff, path: '/api/admin/catalogue/export?file=products' },
    'GET /api/admin/health': { as: staff },
    // Statements (issue 35, item 4): every account's ledger for staff; the buyer's own.
    'GET /api/admin/balances': { as: staff },
    'GET /api/admin/balances/aged.csv': { as: staff },
    'GET /api/account/statement': {},
    'GET /api/account/statement.pdf': {},
    'POST /api/shoppingCartSmall': { body: { token: t } },
    'GET /api/search': { path: '/api/search?q=card' },
    'POST /api/getProfile': { body: { token: t } },
    'POST /api/profile': { body: { payLoad: { business: 'Fault Test Ltd', telephone: '01632 960 123', email: buyer.email, optInMarketing: 0, token: t } } },
    'GET /api/csrf': {},
    'POST /api/session': {},
    'DELETE /api/session': {},
    'POST /api/recommended': { body: { token: t } },
    'POST /api/basket': { body: { token: t } },
    'POST /api/basket/add': { body: { token: t, sku: sku.sku, quantity: sku.pack_size } },
    'POST /api/basket/addMany': { body: { token: t, lines: [{ sku: sku.sku, quantity: sku.pack_size }] } },
    'POST /api/basket/set': { body: { token: t, sku: sku.sku, quantity: 2 * sku.pack_size } },
    'POST /api/basket/remove': { body: { token: t, sku: sku.sku } },
    'POST /api/prices': { body: { token: t, skus: [sku.sku] } },
    // In stock now (issue 39): a range's categories and their products read from the store.
    'POST /api/listing-stock': { body: { token: t, range: 'wholesale_greeting_cards' } },
    'POST /api/orders': { body: { token: t, idempotency_key: `faults-${randomUUID()}`, delivery_option: 'standard', same_as_billing: true } },
    'GET /api/orders': {},
    'GET /api/orders/{id}': { path: '/api/orders/TS-100001' },
    'GET /api/orders/{id}/invoice': { path: '/api/orders/TS-100001/invoice' },
    'GET /api/orders/{id}/creditNotes/{number}': { path: '/api/orders/TS-100001/creditNotes/CN-000001' },
    'POST /api/orders/{id}/pay': { path: '/api/orders/TS-100001/pay', body: { token: t } },
    'POST /api/orders/{id}/reorder': { path: '/api/orders/TS-100001/reorder', body: { token: t } },
    'GET /api/forward-orders': {},
    // Back-in-stock alerts (issue 38): each reads the store first (the product, the list).
    'GET /api/alerts': {},
    'POST /api/alerts': { body: { token: t, sku: sku.sku } },
    'POST /api/alerts/remove': { body: { token: t, sku: sku.sku } },
    'POST /api/forward-orders/{id}/lines': { path: '/api/forward-orders/TS-100001/lines', body: { token: t, sku: sku.sku, packs: 0 } },
    'POST /api/billing': { body: { token: t, billing } },
    'POST /api/checkout': { body: { token: t } },
    'POST /api/getCoupon': { body: { token: t, active_coupon_id: 'TRADE10' } },
    'POST /api/updateCoupon': { body: { token: t, active_coupon_id: 'TRADE10' } },
    'POST /api/skus': { body: { token: t, lines: [{ sku: sku.sku, quantity: sku.pack_size }] } },
    'GET /api/lists': {},
    'POST /api/lists': { body: { token: t, name: 'Fault list', lines: [{ sku: sku.sku, quantity: sku.pack_size }] } },
    // A list id in the right form, so it is looked up (any other is a 404 at once).
    'GET /api/lists/{id}': { path: '/api/lists/abcdefghjkmn' },
    'POST /api/lists/{id}': { path: '/api/lists/abcdefghjkmn', body: { token: t, name: 'Fault list, renamed' } },
    'DELETE /api/lists/{id}': { path: '/api/lists/abcdefghjkmn' },
    'POST /api/lists/{id}/basket': { path: '/api/lists/abcdefghjkmn/basket', body: { token: t } },
    // Stripe's webhook: a signed event (its record is the first store call).
    'POST /api/payments/stripe': (() => {
      const body = JSON.stringify({
        id: `evt_faults_${randomUUID()}`,
        object: 'event',
        api_version: STRIPE_API_VERSION,
        type: 'payment_intent.payment_failed',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: 'pi_faults', object: 'payment_intent', metadata: { order_id: 'TS-100001', uid: 'nobody', attempt: '1' } } },
      });
      return { body: Buffer.from(body), headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(body, STRIPE_WEBHOOK_SECRET) } };
    })(),
    'POST /api/errors': {
      body: {
        build: 'faults',
        agent: 'desktop',
        reports: [{ kind: 'api', name: 'ApiError', message: 'The basket answered 503.', path: '/basket/', status: 503, count: 1 }],
      },
    },
  };
}

async function storePaused(product) {
  const { readFileSync } = await import('node:fs');
  const { endpoints } = JSON.parse(readFileSync(path.join(root, 'functions/internal/api/endpoints.json'), 'utf8'));
  const buyer = await emulatorUser('paused');
  await csrfFor(buyer);
  await must('billing', await api(buyer, 'POST', '/api/billing', { token: buyer.token, billing }));
  await must('basket/add', await api(buyer, 'POST', '/api/basket/add', { token: buyer.token, sku: product.sku, quantity: product.pack_size }));
  await must('search (builds the index)', await api(buyer, 'GET', '/api/search?q=card'));
  const staff = await staffUser();
  await csrfFor(staff);
  const staff2 = await staffUser();
  await csrfFor(staff2);
  const importFile = await unchangedImportFile(staff, product.sku);
  const applyBody = { token: staff.token, products: { name: 'faults.csv', text: importFile }, full: false, images: {}, job: importJob(importFile) };

  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const shots = path.join(root, 'test-results');
  mkdirSync(shots, { recursive: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    let signedIn = true;
    try {
      await page.goto(shop + '/account/login/');
      await page.getByLabel('Email').fill(buyer.email);
      await page.getByLabel('Password').fill(buyer.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL((u) => !u.pathname.startsWith('/account/login'), { timeout: 30000 });
      await page.goto(shop + '/checkout/basket/');
      await page.waitForSelector('.basket-table', { timeout: 30000 });
    } catch (err) {
      signedIn = false;
      check('the browser signs in and loads the basket before the pause', false, err.message.split('\n')[0]);
    }

    say('faults', `A. SIGSTOP of the store (STORE_TIMEOUT_MS=${timeoutMs}): every endpoint, once, at the same time`);
    process.kill(store.child.pid, 'SIGSTOP');
    try {
      const reqs = requests(buyer, product, staff, importFile);
      const routes = endpoints.flatMap((e) => e.routes.map((r) => ({ route: r, name: e.name, usesStore: e.access.length > 0 })));
      const missing = routes.filter((r) => !reqs[r.route]);
      check('every route of endpoints.json has a request in the suite', missing.length === 0, missing.map((r) => r.route).join(', '));
      const answers = await Promise.all(
        routes
          .filter((r) => reqs[r.route])
          .map(async (r) => {
            const [method, pattern] = r.route.split(' ');
            const q = reqs[r.route];
            const res = await api(q.as ?? buyer, method, q.path ?? pattern, q.body, { limitMs: timeoutMs + 10000, headers: q.headers });
            return { ...r, method, res };
          }),
      );
      for (const a of answers) {
        const { res } = a;
        const inTime = res.status !== 0 && res.ms <= timeoutMs + 1000;
        const shown = `${res.status || res.error} in ${Math.round(res.ms)} ms`;
        if (!a.usesStore) {
          const expect = reqs[a.route].expect;
          check(`${a.route} (no store) answers at once${expect ? ` (${expect})` : ''}`, inTime && (expect ? res.status === expect : res.status < 300), shown);
        } else if (a.name === 'search') {
          // Search answers from its in-memory index (built above): 200 from memory, or 503.
          check(
            `${a.route} answers within ${timeoutMs + 1000} ms (200 from its index, or 503)`,
            inTime && (res.status === 200 || (res.status === 503 && res.body?.error === unavailable)),
            shown,
          );
        } else {
          check(
            `${a.route} answers 503 with the sentence within ${timeoutMs + 1000} ms`,
            inTime && res.status === 503 && res.body?.error === unavailable,
            `${shown}${res.status && res.status !== 503 ? ` ${JSON.stringify(res.body).slice(0, 120)}` : ''}`,
          );
        }
      }

      if (!signedIn) return;
      await page.goto(shop + '/checkout/basket/');
      const alert = page.locator('main [role="alert"]');
      const retry = alert.getByRole('button', { name: 'Try again' });
      let shownError = true;
      try {
        await retry.waitFor({ timeout: timeoutMs + 15000 });
      } catch {
        shownError = false;
      }
      await page.screenshot({ path: path.join(shots, 'faults-basket-store-paused.png') });
      check(
        'the basket page, store paused, shows an error with Try again',
        shownError,
        shownError ? JSON.stringify((await alert.first().textContent())?.trim().slice(0, 120)) : 'no Try again button',
      );
    } finally {
      process.kill(store.child.pid, 'SIGCONT');
      say('faults', 'A. SIGCONT of the store');
    }
    // The apply sent while the store was paused may have taken the import lock once the
    // store resumed (a timed-out write's outcome is unknown), which would refuse round D's
    // import for the lock's minute. Sent again, the same job takes the lock over, finds
    // nothing to change (the file is the product as it is) and gives the lock up.
    const again = await persist(() => api(staff, 'POST', '/api/admin/catalogue/apply', applyBody));
    check(
      'A. the catalogue apply sent while the store was paused, sent again, finishes with nothing to change and frees the import lock',
      again.status === 200 && again.body?.plan?.unchanged === 1 && again.body?.plan?.changed === 0,
      `${again.status} ${JSON.stringify(again.body).slice(0, 160)}`,
    );
    const retry = page.locator('main [role="alert"]').getByRole('button', { name: 'Try again' });
    if (await retry.count()) await retry.first().click();
    // The writes sent while the store was paused answered 503, but the store may still
    // apply them when it resumes (a timed-out write's outcome is unknown): the remove sent
    // then can empty this basket. So the page must leave its error for the basket as it
    // is now: its lines, or the empty basket's sentence.
    let loaded = true;
    try {
      await page.waitForSelector('.basket-table, main p:has-text("Your basket is empty")', { timeout: 20000 });
    } catch {
      loaded = false;
    }
    check(
      'after SIGCONT, Try again loads the basket',
      loaded,
      loaded
        ? ''
        : (
            (await page
              .locator('main')
              .textContent()
              .catch(() => '')) ?? ''
          )
            .trim()
            .slice(0, 200),
    );
    await page.goto(shop + product.path);
    // The product's own form (related products below have forms too).
    const form = page.locator(`form.add-to-basket[data-sku="${product.sku}"]`);
    await form.waitFor({ timeout: 15000 }).catch(() => {});
    await form.locator('button[type="submit"]').click();
    let added = '';
    for (let i = 0; i < 50 && !/Added/.test(added); i++) {
      added =
        (await form
          .locator('[role="status"]')
          .textContent({ timeout: 200 })
          .catch(() => '')) ?? '';
      await sleep(200);
    }
    await page.screenshot({ path: path.join(shots, 'faults-add-after-sigcont.png') });
    check(`after SIGCONT, an add on ${product.path} works`, /Added/.test(added), JSON.stringify(added.trim()));
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------- B. kill -9

/** A buyer's orders: at least ORDERS_EACH, and more while the kills are still to come
 * (at most MAX_ORDERS_EACH), so every kill of the plan lands while buyers are ordering. */
async function buyerRun(buyer, products, tally, chaosDone) {
  for (let k = 0; k < MAX_ORDERS_EACH && (k < ORDERS_EACH || !chaosDone()); k++) {
    const p = products[Math.floor(Math.random() * products.length)];
    const set = await persist(() => api(buyer, 'POST', '/api/basket/set', { token: buyer.token, sku: p.sku, quantity: p.packs_per_order * p.pack_size }));
    if (set.status !== 200) {
      tally.other.push(`set ${set.status || set.error} ${JSON.stringify(set.body ?? '').slice(0, 100)}`);
      await sleep(100);
      continue;
    }
    const key = `faults-${randomUUID()}`;
    const r = await persist(() =>
      api(buyer, 'POST', '/api/orders', { token: buyer.token, idempotency_key: key, delivery_option: 'standard', same_as_billing: true }),
    );
    if (r.status >= 200 && r.status < 300 && r.body?.id) {
      tally.acked.push({ uid: buyer.uid, id: r.body.id });
    } else {
      if (r.status === 409) tally.refused.push(r.body?.error ?? '');
      else tally.other.push(`order ${r.status || r.error} ${JSON.stringify(r.body ?? '').slice(0, 100)}`);
      await persist(() => api(buyer, 'POST', '/api/basket/remove', { token: buyer.token, sku: p.sku }));
    }
  }
}

/** A member of staff: an emulator user given the claim staff: true (as scripts/staff
 * grant does), signed in again so the token carries it. */
async function staffUser() {
  const u = await emulatorUser('staff');
  const headers = { 'content-type': 'application/json', authorization: 'Bearer owner' };
  const upd = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:update?key=local`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ localId: u.uid, customAttributes: '{"staff":true}' }),
  });
  if (!upd.ok) throw new Error(`emulator accounts:update answered ${upd.status}`);
  const res = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: u.email, password: u.password, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator sign-in answered ${res.status}`);
  return { ...u, token: /** @type {{ idToken: string }} */ (await res.json()).idToken };
}

/** Staff cancel orders as they are acknowledged, while the kills go on: each at most once
 * (version 1), its answer kept (200: cancelled; anything else: maybe, as for a buyer).
 * A second member of staff (again) cancels an order the first has just sent, at the same
 * time where it can: one of the two wins, and the order still gets one credit note. */
async function staffRun(staff, tally, chaosDone, again = false) {
  while (!chaosDone()) {
    const open = again ? [...tally.cancels.keys()].filter((id) => !tally.again.has(id)) : tally.acked.map((a) => a.id).filter((id) => !tally.cancels.has(id));
    if (open.length === 0 || Math.random() < (again ? 0.3 : 0.6)) {
      await sleep(again ? rand(20, 120) : rand(150, 400));
      continue;
    }
    const id = open[again ? open.length - 1 : Math.floor(Math.random() * open.length)];
    const answers = again ? tally.again : tally.cancels;
    answers.set(id, 'sent');
    const r = await api(staff, 'POST', `/api/admin/orders/${id}/action`, { token: staff.token, action: 'cancel', version: 1, reason: 'Fault suite' });
    answers.set(id, r.status || r.error);
  }
}

/** The kills of a round (B, or E): the edge, the store, the edge, each restarted after a
 * moment. */
async function chaos(round = 'B') {
  const kills = [];
  const plan = ['edge', 'store', 'edge'];
  for (const what of plan) {
    await sleep(rand(700, 2500));
    if (what === 'edge') {
      await kill9(edge);
      kills.push('edge');
      say('faults', `${round}. kill -9 of the edge`);
      await sleep(rand(200, 1000));
      await startEdge();
    } else {
      await kill9(store.child);
      kills.push('store');
      say('faults', `${round}. kill -9 of the store`);
      await sleep(rand(200, 1000));
      await startStore();
    }
    say('faults', `${round}. ${what} restarted`);
  }
  return kills;
}

/** A quick-order buyer: adds of QUICK_LINES lines in one call (one conditional put of the
 * whole basket item) while the kills go on, each sent once (an add is not idempotent, so
 * an answer lost to a kill is never repeated): 200 is acknowledged, a 4xx wrote nothing,
 * anything else may or may not have been written. */
async function quickBuyerRun(buyer, lines, tally, chaosDone) {
  for (let k = 0; k < MAX_QUICK_ADDS && !chaosDone(); k++) {
    const batch = Array.from({ length: QUICK_LINES }, (_, i) => lines[(k * 7 + i) % lines.length]);
    const r = await api(buyer, 'POST', '/api/basket/addMany', { token: buyer.token, lines: batch });
    if (r.status === 200) tally.acked.push(batch);
    else if (r.status >= 400 && r.status < 500) tally.refused.push(r.status);
    else tally.unknown.push(batch);
    await sleep(rand(50, 250));
  }
}

/** In-stock lines of one pack of n products, from the search (which lists no discontinued one). */
async function inStockLines(n) {
  const out = new Map();
  for (let page = 1; out.size < n && page <= 20; page++) {
    const r = await must('search', await api(null, 'GET', `/api/search?q=card&page=${page}`));
    for (const h of r.body.hits) if (h.in_stock && out.size < n) out.set(h.sku, { sku: h.sku, quantity: h.pack_size });
  }
  if (out.size < n) throw new Error(`only ${out.size} products in stock for the quick-order buyer`);
  return [...out.values()];
}

async function killNine(products, coupon) {
  say(
    'faults',
    `B. ${BUYERS} buyers × ${ORDERS_EACH} orders of ${products.length} products (stock for 12 orders each), coupon ${coupon.id} (limit ${coupon.limit}) active on 5 accounts`,
  );
  const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => emulatorUser(i)));
  const staff = await staffUser();
  await csrfFor(staff);
  const staff2 = await staffUser();
  await csrfFor(staff2);
  await Promise.all(
    buyers.map(async (b, i) => {
      await csrfFor(b);
      await must('billing', await api(b, 'POST', '/api/billing', { token: b.token, billing }));
      if (i < 5) await must('updateCoupon', await api(b, 'POST', '/api/updateCoupon', { token: b.token, active_coupon_id: coupon.id }));
    }),
  );
  const quick = await emulatorUser('quick');
  await csrfFor(quick);
  const quickLines = await inStockLines(QUICK_LINES + 30);
  /** @type {{ acked: { sku: string, quantity: number }[][], refused: string[], unknown: { sku: string, quantity: number }[][] }} */
  const quickTally = { acked: [], refused: [], unknown: [] };
  /** @type {{ acked: { uid: string, id: string }[], refused: string[], other: string[], cancels: Map<string, string | number>, again: Map<string, string | number> }} */
  const tally = { acked: [], refused: [], other: [], cancels: new Map(), again: new Map() };
  let chaosDone = false;
  const t0 = performance.now();
  const [kills] = await Promise.all([
    chaos().finally(() => (chaosDone = true)),
    Promise.all(buyers.map((b) => buyerRun(b, products, tally, () => chaosDone))),
    staffRun(staff, tally, () => chaosDone),
    staffRun(staff2, tally, () => chaosDone, true),
    quickBuyerRun(quick, quickLines, quickTally, () => chaosDone),
  ]);
  say(
    'faults',
    `B. buyers done in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${tally.acked.length} orders acknowledged, ` +
      `${tally.refused.length} refused (409), ${tally.other.length} other; kills: ${kills.join(', ') || 'none (the buyers finished first)'}`,
  );
  for (const m of new Set(tally.refused)) say('faults', `   409: ${m}`);
  for (const m of tally.other.slice(0, 5)) say('faults', `   other: ${m}`);
  const cancelAnswers = {};
  for (const v of tally.cancels.values()) cancelAnswers[v] = (cancelAnswers[v] ?? 0) + 1;
  say('faults', `B. staff cancellations sent meanwhile, by answer: ${JSON.stringify(cancelAnswers)}`);
  const againAnswers = {};
  for (const v of tally.again.values()) againAnswers[v] = (againAnswers[v] ?? 0) + 1;
  say('faults', `B. the same orders cancelled again by a second member of staff, by answer: ${JSON.stringify(againAnswers)}`);
  check('the store and the edge were each killed at least once while buyers ordered', kills.includes('edge') && kills.includes('store'), kills.join(', '));
  check('some orders were acknowledged', tally.acked.length > 0, String(tally.acked.length));
  // Quick order (docs/orders.md): a line holds every add acknowledged, and nothing of an
  // add refused; an add whose answer was lost may or may not be there, whole or not at all.
  const basket = await must('basket', await persist(() => api(quick, 'POST', '/api/basket', { token: quick.token })));
  const held = new Map(basket.body.lines.map((l) => [l.sku, l.quantity]));
  const sum = (batches) => {
    const m = new Map();
    for (const b of batches) for (const l of b) m.set(l.sku, (m.get(l.sku) ?? 0) + l.quantity);
    return m;
  };
  const acked = sum(quickTally.acked);
  const maybe = sum(quickTally.unknown);
  const wrong = quickLines.filter((l) => {
    const h = held.get(l.sku) ?? 0;
    return h < (acked.get(l.sku) ?? 0) || h > (acked.get(l.sku) ?? 0) + (maybe.get(l.sku) ?? 0);
  });
  check(
    `quick order: each basket line holds the adds of ${QUICK_LINES} lines acknowledged, and no more than those sent`,
    wrong.length === 0 && quickTally.acked.length > 0,
    `${quickTally.acked.length} adds acknowledged, ${quickTally.refused.length} refused, ${quickTally.unknown.length} answer lost${
      wrong.length
        ? `; wrong: ${wrong
            .slice(0, 3)
            .map((l) => `${l.sku} holds ${held.get(l.sku) ?? 0}, acknowledged ${acked.get(l.sku) ?? 0}`)
            .join(', ')}`
        : ''
    }`,
  );

  if (existsSync(path.join(binDir, 'recover'))) {
    // Every order is settled by now, so every missing invoice is issued, however new.
    await run(path.join(binDir, 'recover'), ['-invoice-after', '0s'], { env: toolEnv });
    check('the recovery command ran', true);
  } else {
    check('the recovery command ran', false, 'there is no functions/cmd/recover');
  }

  const out = JSON.parse(
    await capture(
      path.join(binDir, 'ordercheck'),
      ['check', '-uids', buyers.map((b) => b.uid).join(','), '-skus', products.map((p) => p.sku).join(','), '-coupon', coupon.id],
      { env: toolEnv },
    ),
  );
  const ids = new Set(out.orders.map((o) => `${o.uid} ${o.id}`));
  const lost = tally.acked.filter((a) => !ids.has(`${a.uid} ${a.id}`));
  check(
    'every acknowledged order exists',
    lost.length === 0,
    `${tally.acked.length} acknowledged, ${out.orders.length} in the table${lost.length ? `; missing ${lost.map((a) => a.id).join(', ')}` : ''}`,
  );
  const statuses = {};
  for (const o of out.orders) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
  say('faults', `B. orders in the table by status: ${JSON.stringify(statuses)}`);
  // Cancellations (docs/back-office.md): after recovery none is left half done, every one
  // staff were told went through is cancelled, and what a cancelled order held is back.
  const cancelling = out.orders.filter((o) => o.status === 'cancelling');
  check('no cancellation is left half done after recovery', cancelling.length === 0, cancelling.map((o) => o.id).join(', '));
  const byId = new Map(out.orders.map((o) => [o.id, o]));
  const notCancelled = [...tally.cancels, ...tally.again].filter(([id, answer]) => answer === 200 && byId.get(id)?.status !== 'cancelled');
  check(
    'every cancellation answered 200 is cancelled',
    notCancelled.length === 0,
    `${[...tally.cancels.values()].filter((a) => a === 200).length} answered 200${notCancelled.length ? `; not cancelled: ${notCancelled.map(([id]) => id).join(', ')}` : ''}`,
  );
  const live = out.orders.filter((o) => o.status !== 'cancelled');
  for (const p of products) {
    const ordered = live
      .flatMap((o) => o.lines)
      .filter((l) => l.sku === p.sku)
      .reduce((n, l) => n + l.quantity, 0);
    const now = out.stock[p.sku];
    check(
      `${p.sku}: stock + units on orders not cancelled = initial stock`,
      now + ordered === p.stock && now >= 0,
      `${now} + ${ordered} = ${now + ordered}, initial ${p.stock}`,
    );
  }
  const carrying = live.filter((o) => o.coupon_id === coupon.id).length;
  check(
    `coupon ${coupon.id}: used count = orders not cancelled carrying it, within its limit`,
    out.coupon.used === carrying && carrying <= coupon.limit,
    `used ${out.coupon.used}, ${carrying} orders carry it, limit ${out.coupon.limit}`,
  );
  // The invoice invariant (docs/invoices.md): after recovery every order has its invoice,
  // and the numbers issued are 1 to the counter, none missing or repeated, each on its order.
  const uninvoiced = out.orders.filter((o) => !o.invoice);
  check(
    'every order has its VAT invoice after recovery',
    uninvoiced.length === 0,
    `${out.orders.length} orders${uninvoiced.length ? `; without an invoice: ${uninvoiced.map((o) => o.id).join(', ')}` : ''}`,
  );
  const { numbers, counter } = out.invoices;
  const byOrder = new Map(out.orders.map((o) => [`${o.uid} ${o.id}`, o.invoice]));
  const misplaced = numbers.filter((n, i) => n.number !== i + 1 || byOrder.get(`${n.uid} ${n.order_id}`) !== n.number);
  check(
    'invoice numbers run 1 to N with no gap or repeat, each on its order',
    numbers.length === counter && misplaced.length === 0 && numbers.length === out.orders.length,
    `${numbers.length} numbers, counter ${counter}, ${out.orders.length} orders${
      misplaced.length
        ? `; out of place: ${misplaced
            .slice(0, 5)
            .map((n) => n.number)
            .join(', ')}`
        : ''
    }`,
  );
  // The credit note invariants (docs/invoices.md "Credit notes"), checked by ordercheck
  // (orders.CreditNoteProblems): numbers 1 to N, none missing or repeated, each on the
  // order it names; a note credits at most what was invoiced; a cancelled order is
  // credited in full. And each cancelled order has exactly one (the suite credits nothing
  // else), an order not cancelled none.
  const credits = out.credit_notes;
  check(
    'credit note numbers run 1 to N with no gap or repeat, each on its order, crediting what was invoiced',
    credits.problems.length === 0 && credits.numbers.length === credits.counter,
    `${credits.numbers.length} numbers, counter ${credits.counter}${credits.problems.length ? `; ${credits.problems.slice(0, 5).join(' ')}` : ''}`,
  );
  const wrongNotes = out.orders.filter((o) => o.credit_notes.length !== (o.status === 'cancelled' ? 1 : 0));
  check(
    'each cancelled order has one credit note, and no other order has any',
    wrongNotes.length === 0 && credits.numbers.length === out.orders.filter((o) => o.status === 'cancelled').length,
    `${out.orders.filter((o) => o.status === 'cancelled').length} cancelled${
      wrongNotes.length
        ? `; wrong: ${wrongNotes
            .slice(0, 5)
            .map((o) => `${o.id} (${o.status}) ${o.credit_notes.length}`)
            .join(', ')}`
        : ''
    }`,
  );
}

// ---------------------------------------------------------------- C. mail server stopped

/** The emails in the inbox that are order id's confirmation: its outbox id, sent to buyer. */
function confirmationsOf(emails, id, buyer) {
  return emails.filter(
    (e) => e.headers?.['x-outbox-id'] === `${id}/confirmation` && e.to?.some((a) => a.address === buyer.email) && String(e.subject).includes(id),
  );
}

async function mailDown(product) {
  say('faults', `C. ${MAIL_BUYERS} buyers; maildev killed (SIGKILL) before they order`);
  const buyers = await Promise.all(Array.from({ length: MAIL_BUYERS }, (_, i) => emulatorUser(`mail-${i}`)));
  await Promise.all(
    buyers.map(async (b) => {
      await csrfFor(b);
      await must('billing', await api(b, 'POST', '/api/billing', { token: b.token, billing }));
      await must(
        'basket/set',
        await api(b, 'POST', '/api/basket/set', { token: b.token, sku: product.sku, quantity: product.packs_per_order * product.pack_size }),
      );
    }),
  );
  await kill9(mail.child);
  const placed = await Promise.all(
    buyers.map(async (b) => {
      const key = `faults-mail-${randomUUID()}`;
      const r = await persist(() =>
        api(b, 'POST', '/api/orders', { token: b.token, idempotency_key: key, delivery_option: 'standard', same_as_billing: true }),
      );
      return { buyer: b, status: r.status, id: r.body?.id, error: r.body?.error ?? r.error };
    }),
  );
  const acked = placed.filter((p) => p.status >= 200 && p.status < 300 && p.id);
  check(
    'C. orders placed with the mail server down succeed',
    acked.length === MAIL_BUYERS,
    placed.map((p) => `${p.id ?? '-'} ${p.status || p.error}${p.status >= 300 ? ` ${p.error}` : ''}`).join(', '),
  );
  // The edge tries to send meanwhile (every 2 s) and backs off.
  await sleep(5000);
  say('faults', `C. ${acked.map((p) => p.id).join(', ')} placed; maildev started again on the same ports`);
  await startMail();
  const t0 = performance.now();
  const counts = async () => {
    const emails = await maildevEmails(mail.url);
    return acked.map((p) => ({ id: p.id, n: confirmationsOf(emails, p.id, p.buyer).length }));
  };
  let got = await counts();
  while (got.some((c) => c.n < 1) && performance.now() - t0 < MAIL_WAIT_MS) {
    await sleep(1000);
    got = await counts();
  }
  const waited = ((performance.now() - t0) / 1000).toFixed(1);
  const missing = got.filter((c) => c.n === 0).map((c) => c.id);
  check(
    `C. each order's confirmation arrives once maildev is back (within ${MAIL_WAIT_MS / 1000} s)`,
    acked.length > 0 && missing.length === 0,
    missing.length ? `none yet for ${missing.join(', ')} after ${waited} s` : `all within ${waited} s`,
  );
  // A few more of the edge's sends: nothing is sent a second time.
  await sleep(6000);
  got = await counts();
  const twice = got.filter((c) => c.n > 1);
  check(
    "C. each order's confirmation arrives exactly once",
    acked.length > 0 && twice.length === 0 && got.every((c) => c.n === 1),
    got.map((c) => `${c.id}: ${c.n}`).join(', '),
  );
}

// ---------------------------------------------------------------- D. catalogue import killed

/** Splits one CSV row (quoted cells may hold commas and doubled quotes; the export has no
 * line breaks in cells of the seed). */
function csvCells(line) {
  const out = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out;
}
const csvRow = (cells) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',');
const pence = (s) => Math.round(Number(s) * 100);

async function exportedCatalogue(file) {
  await run(path.join(binDir, 'catalogue'), ['export', '-out', file], { env: toolEnv });
  const { readFileSync } = await import('node:fs');
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const header = csvCells(lines[0] ?? '');
  /** @type {Record<string, string>[]} */
  const rows = lines.slice(1).map((l) => Object.fromEntries(csvCells(l).map((v, i) => [header[i], v])));
  return { header, rows };
}

/** D. skip: the products rounds B and C ordered (their cancellations may still give stock back). */
async function importKilled(skip) {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const before = await exportedCatalogue(path.join(scratch, 'before.csv'));
  const active = before.rows.filter((r) => r.status === 'active' && !skip.has(r.sku));
  // P: the product whose pack costs most (fewest units to reach the minimum order), in
  // stock; the file lists it first, so it is the first update the import writes (new
  // products go before updates) and the killed run has set its stock.
  const packPence = (r) => pence(r.unit_price) * Number(r.pack_size);
  const p = active.filter((r) => Number(r.stock) > 0).sort((a, b) => packPence(b) - packPence(a))[0];
  if (!p) throw new Error('D. the catalogue has no active product in stock to order');
  active.splice(active.indexOf(p), 1);
  active.unshift(p);
  const { minimumOrderPence } = JSON.parse(readFileSync(path.join(root, 'functions/config/shop.json'), 'utf8'));
  const orderUnits = Math.ceil(minimumOrderPence / packPence(p)) * Number(p.pack_size);
  /** @type {Record<string, string>[]} */
  const rows = active.map((r) => ({ ...r, unit_price: ((pence(r.unit_price) + 5) / 100).toFixed(2), stock: String(IMPORT_STOCK) }));
  for (let i = 0; i < IMPORT_NEW; i++) {
    rows.push({ ...p, sku: `FLT-NEW-${String(i).padStart(5, '0')}`, name: `Fault Suite Card ${i}`, stock: '60', image: '', sort_order: '', barcode: '' });
  }
  const file = path.join(scratch, 'import.csv');
  writeFileSync(file, [before.header.join(','), ...rows.map((r) => csvRow(before.header.map((h) => String(r[h] ?? ''))))].join('\n') + '\n');
  const want = new Map(rows.map((r) => [r.sku, r]));
  say(
    'faults',
    `D. ${IMPORT_BUYERS} buyers ordering ${p.sku} (${orderUnits} units an order) while an import of ${rows.length} rows (${IMPORT_NEW} new) is killed part-way, then run again`,
  );

  const buyers = await Promise.all(Array.from({ length: IMPORT_BUYERS }, (_, i) => emulatorUser(`import-${i}`)));
  await Promise.all(
    buyers.map(async (b) => {
      await csrfFor(b);
      await must('billing', await api(b, 'POST', '/api/billing', { token: b.token, billing }));
    }),
  );
  const orders = [];
  const refusals = [];
  let stop = false;
  const buying = Promise.all(
    buyers.map(async (b) => {
      while (!stop) {
        const set = await api(b, 'POST', '/api/basket/set', { token: b.token, sku: p.sku, quantity: orderUnits });
        if (set.status !== 200) {
          await sleep(50);
          continue;
        }
        const sent = performance.now();
        const r = await persist(() =>
          api(b, 'POST', '/api/orders', {
            token: b.token,
            idempotency_key: `faults-import-${randomUUID()}`,
            delivery_option: 'standard',
            same_as_billing: true,
          }),
        );
        if (r.status >= 200 && r.status < 300 && r.body?.id) orders.push({ sent, acked: performance.now(), units: orderUnits });
        else {
          refusals.push(`${r.status || r.error} ${JSON.stringify(r.body?.error ?? '').slice(0, 80)}`);
          await api(b, 'POST', '/api/basket/remove', { token: b.token, sku: p.sku });
        }
      }
    }),
  );
  await sleep(1500); // orders before the import

  const env = { ...toolEnv, MEDIA_DIR: path.join(scratch, 'media') };
  const started = performance.now();
  const first = startService('catalogue', path.join(binDir, 'catalogue'), ['import', file], { env });
  let killedAt = 0;
  let finished = false;
  first.stdout?.on('data', (d) => {
    const text = String(d);
    if (text.includes('applied in')) finished = true;
    const m = [...text.matchAll(/writing \d+ of \d+ products \((\d+)%\)/g)].pop();
    if (m && Number(m[1]) >= 80 && !killedAt) {
      killedAt = performance.now();
      try {
        if (first.pid) process.kill(first.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  });
  const code = await first.exited;
  check('D. the first import run was killed part-way through its writes', killedAt > 0 && !finished && code !== 0, `exit ${code}, killed ${killedAt > 0}`);
  if (!killedAt) killedAt = performance.now();
  await sleep(1500); // orders between the kill and the re-run
  const again = await capture(path.join(binDir, 'catalogue'), ['import', file], { env });
  check('D. the re-run finishes the import', /applied in|nothing to change/.test(again), again.trim().split('\n').slice(-1)[0]);
  await sleep(1000);
  stop = true;
  await buying;

  const after = await exportedCatalogue(path.join(scratch, 'after.csv'));
  const seen = new Map();
  for (const r of after.rows) seen.set(r.sku, (seen.get(r.sku) ?? 0) + 1);
  const doubled = [...seen].filter(([, n]) => n > 1).map(([sku]) => sku);
  check(
    'D. no product is doubled and none is missing',
    doubled.length === 0 && after.rows.length === before.rows.length + IMPORT_NEW,
    `${after.rows.length} products, want ${before.rows.length + IMPORT_NEW}; doubled: ${doubled.slice(0, 5).join(', ')}`,
  );
  const wrong = after.rows.filter((r) => {
    const w = want.get(r.sku);
    return w !== undefined && (r.unit_price !== w.unit_price || r.name !== w.name || (r.sku !== p.sku && r.stock !== w.stock));
  });
  check(
    'D. every row reads as the file says',
    wrong.length === 0,
    wrong
      .slice(0, 3)
      .map((r) => `${r.sku} ${r.unit_price} ${r.stock}`)
      .join('; '),
  );
  const units = (keep) => orders.filter(keep).reduce((n, o) => n + o.units, 0);
  const stock = Number(after.rows.find((r) => r.sku === p.sku)?.stock);
  const low = IMPORT_STOCK - units((o) => o.acked > started);
  const high = IMPORT_STOCK - units((o) => o.sent > killedAt);
  const between = orders.filter((o) => o.sent > killedAt).length;
  check(
    `D. buyers ordered ${p.sku} before, during and after the import`,
    orders.length > 0 && between > 0,
    `${orders.length} orders, ${between} sent after the kill; refused: ${[...new Set(refusals)].slice(0, 3).join('; ')}`,
  );
  check(
    `D. ${p.sku}'s stock is ${IMPORT_STOCK} less the units ordered after the import read it (applied once, no order given back)`,
    stock >= low && stock <= high && stock >= 0,
    `stock ${stock}, bounds ${low}..${high}, ${orders.length} orders of ${orderUnits} units`,
  );
}

// ---------------------------------------------------------------- E. payments under kill -9

/** A buyer whose email the Auth emulator marks verified (as paying on account needs),
 * signed in again so the token says so, with a profile, approved for credit by staff
 * (onAccount) and billed on account, or billed pro-forma. */
async function payingBuyer(i, staff, onAccount) {
  const u = await emulatorUser(`pay-${i}`);
  const upd = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:update?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: u.uid, emailVerified: true }),
  });
  if (!upd.ok) throw new Error(`emulator accounts:update answered ${upd.status}`);
  const res = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: u.email, password: u.password, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator sign-in answered ${res.status}`);
  const b = { ...u, token: /** @type {{ idToken: string }} */ (await res.json()).idToken, onAccount };
  await csrfFor(b);
  await must('getProfile', await api(b, 'POST', '/api/getProfile', { token: b.token }));
  if (onAccount) {
    const page = await must('account', await api(staff, 'GET', `/api/admin/accounts/${b.uid}`));
    await must(
      'approve for credit',
      await api(staff, 'POST', `/api/admin/accounts/${b.uid}`, {
        token: staff.token,
        version: page.body.account.version,
        approved_for_credit: true,
        credit_limit: 50_000_000,
        dsc: '',
      }),
    );
  }
  await must('billing', await api(b, 'POST', '/api/billing', { token: b.token, billing: { ...billing, payment_method: onAccount ? 'account' : 'proforma' } }));
  return b;
}

/** Places one order of product p for buyer b (persisting through kills): its id, or null. */
async function placeOne(b, p) {
  const set = await persist(() => api(b, 'POST', '/api/basket/set', { token: b.token, sku: p.sku, quantity: p.packs_per_order * p.pack_size }));
  if (set.status !== 200) return null;
  const key = `faults-${randomUUID()}`;
  const r = await persist(() => api(b, 'POST', '/api/orders', { token: b.token, idempotency_key: key, delivery_option: 'standard', same_as_billing: true }));
  return r.status >= 200 && r.status < 300 && r.body?.id ? r.body.id : null;
}

/** A member of staff recording payments against the buyers' accounts while the kills go
 * on, each request sent once (recording is not idempotent: an answer lost to a kill is
 * never sent again). In turn: a payment allocated oldest first; one allocated by hand to
 * an invoice the ledger says still owes; one recorded unallocated and then allocated
 * oldest first by both members of staff at the same moment. Each 200 is kept. */
async function payRun(staff, other, buyers, tally, chaosDone) {
  const today = new Date().toISOString().slice(0, 10);
  for (let k = 0; !chaosDone(); k++) {
    const b = buyers[Math.floor(Math.random() * buyers.length)];
    const base = `/api/admin/accounts/${b.uid}/payments`;
    const amount = Math.round(rand(2000, 30000));
    const pay = { token: staff.token, method: k % 2 ? 'cheque' : 'bank_transfer', date: today, amount, reference: `Faults ${k}` };
    const kind = ['oldest', 'by_hand', 'both'][k % 3];
    let r;
    if (kind === 'oldest') {
      r = await api(staff, 'POST', base, { ...pay, allocate: 'oldest' });
    } else if (kind === 'by_hand') {
      const ledger = await api(staff, 'GET', `/api/admin/accounts/${b.uid}/ledger`);
      const open = ledger.status === 200 ? ledger.body.entries.filter((e) => e.kind === 'invoice' && e.outstanding > 0) : [];
      if (open.length === 0) {
        await sleep(rand(50, 200));
        continue;
      }
      const inv = open[Math.floor(Math.random() * open.length)];
      r = await api(staff, 'POST', base, {
        ...pay,
        amount: Math.min(amount, inv.outstanding),
        allocate: 'by_hand',
        lines: [{ invoice: inv.reference, amount: Math.min(amount, inv.outstanding) }],
      });
    } else {
      r = await api(staff, 'POST', base, { ...pay, allocate: 'none' });
      if (r.status === 200) {
        const id = r.body.payment.id;
        const both = await Promise.all([staff, other].map((s) => api(s, 'POST', `${base}/${id}/allocate`, { token: s.token })));
        for (const a of both) tally.allocations[a.status || a.error] = (tally.allocations[a.status || a.error] ?? 0) + 1;
      }
    }
    tally.payments[`${kind} ${r.status || r.error}`] = (tally.payments[`${kind} ${r.status || r.error}`] ?? 0) + 1;
    if (r.status === 200) tally.recorded.push({ uid: b.uid, id: r.body.payment.id, amount: r.body.payment.amount });
    await sleep(rand(20, 120));
  }
}

/** A member of staff cancelling the buyers' orders while payments are allocated to them:
 * each order once, at the version its page shows. */
async function cancelRun(staff, orderIds, tally, chaosDone) {
  const open = [...orderIds];
  while (!chaosDone() && open.length) {
    await sleep(rand(150, 500));
    const id = open.splice(Math.floor(Math.random() * open.length), 1)[0];
    const page = await api(staff, 'GET', `/api/admin/orders/${id}`);
    if (page.status !== 200) {
      open.push(id); // not sent: try it again later
      continue;
    }
    const r = await api(staff, 'POST', `/api/admin/orders/${id}/action`, {
      token: staff.token,
      action: 'cancel',
      version: page.body.order.version,
      reason: 'Fault suite',
    });
    tally.cancels.set(id, r.status || r.error);
  }
}

async function paymentsKilled(products, coupon) {
  const staff = await staffUser();
  await csrfFor(staff);
  const staff2 = await staffUser();
  await csrfFor(staff2);
  const buyers = await Promise.all(Array.from({ length: PAY_BUYERS }, (_, i) => payingBuyer(i, staff, i < PAY_ON_ACCOUNT)));
  const placed = [];
  await Promise.all(
    buyers.map(async (b, i) => {
      for (let k = 0; k < PAY_ORDERS_EACH; k++) {
        const id = await placeOne(b, products[(i + k) % products.length]);
        if (id) placed.push(id);
      }
    }),
  );
  say(
    'faults',
    `E. ${buyers.length} buyers (${PAY_ON_ACCOUNT} on account) placed ${placed.length} orders; two staff record and allocate payments and a third cancels, while the edge and the store are killed`,
  );
  /** @type {{ payments: Record<string, number>, allocations: Record<string, number>, recorded: { uid: string, id: string, amount: number }[], cancels: Map<string, string | number> }} */
  const tally = { payments: {}, allocations: {}, recorded: [], cancels: new Map() };
  let chaosDone = false;
  const t0 = performance.now();
  const [kills] = await Promise.all([
    chaos('E').finally(() => (chaosDone = true)),
    payRun(staff, staff2, buyers, tally, () => chaosDone),
    payRun(staff2, staff, buyers, tally, () => chaosDone),
    cancelRun(staff, placed, tally, () => chaosDone),
  ]);
  const cancelAnswers = {};
  for (const v of tally.cancels.values()) cancelAnswers[v] = (cancelAnswers[v] ?? 0) + 1;
  say(
    'faults',
    `E. done in ${((performance.now() - t0) / 1000).toFixed(1)} s; kills: ${kills.join(', ')}; payments by answer ${JSON.stringify(tally.payments)}; ` +
      `the same payment allocated by both at once, by answer ${JSON.stringify(tally.allocations)}; cancellations by answer ${JSON.stringify(cancelAnswers)}`,
  );
  check(
    'E. the store and the edge were each killed at least once while staff recorded payments',
    kills.includes('edge') && kills.includes('store'),
    kills.join(', '),
  );
  check('E. some payments were recorded', tally.recorded.length > 0, String(tally.recorded.length));
  await run(path.join(binDir, 'recover'), ['-invoice-after', '0s'], { env: toolEnv });
  const out = JSON.parse(
    await capture(
      path.join(binDir, 'ordercheck'),
      ['check', '-uids', buyers.map((b) => b.uid).join(','), '-skus', products.map((p) => p.sku).join(','), '-coupon', coupon.id],
      { env: toolEnv },
    ),
  );
  const held = new Map(out.payments.held.map((h) => [`${h.uid} ${h.id}`, h]));
  const lost = tally.recorded.filter((p) => held.get(`${p.uid} ${p.id}`)?.amount !== p.amount);
  check(
    'E. every payment answered 200 is in the table, with its amount',
    lost.length === 0,
    `${tally.recorded.length} answered 200${lost.length ? `; missing: ${lost.map((p) => p.id).join(', ')}` : ''}`,
  );
  const byId = new Map(out.orders.map((o) => [o.id, o]));
  const notCancelled = [...tally.cancels].filter(([id, answer]) => answer === 200 && byId.get(id)?.status !== 'cancelled');
  check('E. every cancellation answered 200 is cancelled', notCancelled.length === 0, notCancelled.map(([id]) => id).join(', '));
  const m = out.payments;
  check(
    'E. every account keeps the money invariants (ordercheck: payments.AccountProblems)',
    m.problems.length === 0 && out.credit_notes.problems.length === 0,
    `${m.accounts} accounts, ${m.payments} payments, ${m.credit_on_account} credit on account, ${m.refunds} refunds, ${m.allocations} allocations` +
      `${m.problems.length ? `; ${m.problems.length} broken: ${m.problems.slice(0, 6).join(' ')}` : ''}` +
      `${out.credit_notes.problems.length ? `; credit notes: ${out.credit_notes.problems.slice(0, 3).join(' ')}` : ''}`,
  );
}

// ---------------------------------------------------------------- F. card payment event under kill -9

/** The card payment's ID the webhook records for a PaymentIntent (payments.CardPaymentID):
 * "PAY-" and the upper hex of the first 6 bytes of its SHA-256. */
const cardPaymentID = (/** @type {string} */ pi) => `PAY-${createHash('sha256').update(pi).digest('hex').slice(0, 12).toUpperCase()}`;

/** The Stripe-Signature header Stripe sends with body at unix time t (seconds): t, and v1,
 * the hex HMAC-SHA256 of "{t}.{body}" keyed with the endpoint's signing secret. */
function stripeSignature(body, secret, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** POSTs a signed event to the webhook as Stripe does (a fresh signature per delivery, as
 * Stripe's retries carry): { status, body }, or { status: 0, error }. */
async function deliverEvent(body, { limitMs = 15000 } = {}) {
  try {
    const res = await fetch(`${shop}/api/payments/stripe`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': stripeSignature(body, STRIPE_WEBHOOK_SECRET),
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body,
      signal: AbortSignal.timeout(limitMs),
    });
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: 0, error: err.cause?.code ?? err.name ?? String(err) };
  }
}

/** One item of the suite's table as DynamoDB Local holds it now (a consistent GetItem, in
 * DynamoDB's JSON), or null: the raw API, signed with a dummy signature DynamoDB Local
 * does not check, so the suite reads what the table holds without a store client of its own. */
async function storeItem(pk, sk) {
  const res = await fetch(`http://127.0.0.1:${storePort}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'DynamoDB_20120810.GetItem',
      authorization: 'AWS4-HMAC-SHA256 Credential=faults/20260101/eu-west-2/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0',
    },
    body: JSON.stringify({ TableName: storeEnv.TABLE_NAME, Key: { pk: { S: pk }, sk: { S: sk } }, ConsistentRead: true }),
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`DynamoDB Local GetItem answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return /** @type {{ Item?: Record<string, unknown> }} */ (await res.json()).Item ?? null;
}

/** Whether an event's record says it was applied: an applied_at that is set (not absent,
 * NULL, zero or empty). */
function isApplied(item) {
  const a = /** @type {{ N?: string, S?: string, NULL?: boolean } | undefined} */ (item.applied_at);
  return a !== undefined && !a.NULL && a.N !== '0' && a.S !== '' && (a.N !== undefined || a.S !== undefined);
}

/** F. A buyer pays a card order; Stripe's payment_intent.succeeded event reaches an edge
 * that pauses between recording an event and applying it (STRIPE_WEBHOOK_PAUSE_MS, local
 * stage only), which is killed with SIGKILL inside the pause; Stripe delivers the event
 * again (its retry) to the restarted edge, and once more for good measure. One card
 * payment is recorded for the PaymentIntent, allocated to the order's invoice once, the
 * order is paid, the event is marked applied, and ordercheck finds every money invariant. */
async function cardEventKilled(product, coupon) {
  const staff = await staffUser();
  const b = await payingBuyer('card', staff, false);
  await must('billing (card)', await api(b, 'POST', '/api/billing', { token: b.token, billing: { ...billing, payment_method: 'card' } }));
  const orderId = await placeOne(b, product);
  if (!orderId) throw new Error('the card order could not be placed');
  const pay = await must('Pay now', await api(b, 'POST', `/api/orders/${orderId}/pay`, { token: b.token }));
  const attempt = new URL(pay.body.url, shop).searchParams.get('attempt');
  if (!attempt) throw new Error(`Pay now answered no attempt in its URL: ${pay.body.url}`);
  const order = await must('the order', await api(b, 'GET', `/api/orders/${orderId}`));
  const amount = order.body.total_inc_vat;
  const pi = `pi_faults${randomBytes(8).toString('hex')}`;
  const eventId = `evt_faults${randomBytes(8).toString('hex')}`;
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: now,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: pi,
        object: 'payment_intent',
        amount,
        amount_received: amount,
        currency: 'gbp',
        status: 'succeeded',
        created: now,
        livemode: false,
        latest_charge: `ch_faults${randomBytes(8).toString('hex')}`,
        metadata: { order_id: orderId, uid: b.uid, attempt },
      },
    },
  });
  say(
    'faults',
    `F. order ${orderId} (${amount} p, attempt ${attempt}) paid by card: ${eventId} for ${pi} goes to an edge that pauses ${CARD_PAUSE_MS} ms before applying it`,
  );

  await kill9(edge);
  await startEdge({ STRIPE_WEBHOOK_PAUSE_MS: String(CARD_PAUSE_MS) });
  const first = deliverEvent(body, { limitMs: CARD_PAUSE_MS + 10000 });
  const recordedBy = Date.now() + CARD_PAUSE_MS;
  let record = null;
  while (!record && Date.now() < recordedBy) {
    record = await storeItem(`STRIPEEVENT#${eventId}`, 'STRIPEEVENT');
    if (!record) await sleep(25);
  }
  if (!record) throw new Error(`the event was not recorded within ${CARD_PAUSE_MS} ms of its delivery: ${JSON.stringify(await first)}`);
  await kill9(edge);
  const lost = await first;
  check(
    'F. the edge was killed after recording the event and before applying it',
    !isApplied(record) && lost.status === 0,
    `first delivery: ${lost.status || lost.error}`,
  );
  const beforeRetry = await storeItem(`STRIPEEVENT#${eventId}`, 'STRIPEEVENT');
  check('F. the killed delivery left the event recorded, not applied', beforeRetry !== null && !isApplied(beforeRetry));

  await startEdge();
  const retry = await persist(() => deliverEvent(body));
  check("F. Stripe's retry of the event is answered 200", retry.status === 200, `${retry.status || retry.error}: ${String(retry.body ?? '').slice(0, 200)}`);
  const again = await deliverEvent(body);
  check('F. a third delivery of the same event is answered 200', again.status === 200, `${again.status || again.error}`);

  const applied = await storeItem(`STRIPEEVENT#${eventId}`, 'STRIPEEVENT');
  check('F. the event is marked applied', applied !== null && isApplied(applied), JSON.stringify(applied ?? null).slice(0, 200));
  const paid = await must('the order after', await api(b, 'GET', `/api/orders/${orderId}`));
  check(
    'F. the order is paid',
    paid.body.paid_at !== null && (paid.body.payment === undefined || paid.body.payment.state === 'paid'),
    `paid_at ${paid.body.paid_at}, payment ${JSON.stringify(paid.body.payment ?? null)}`,
  );
  const out = JSON.parse(
    await capture(path.join(binDir, 'ordercheck'), ['check', '-uids', b.uid, '-skus', product.sku, '-coupon', coupon.id], { env: toolEnv }),
  );
  const held = out.payments.held.filter((h) => h.uid === b.uid);
  const id = cardPaymentID(pi);
  check(
    `F. one card payment for ${pi} (${id}), of the order's total, allocated to its invoice once`,
    held.length === 1 && held[0].id === id && held[0].method === 'card' && held[0].amount === amount && held[0].allocated === amount,
    JSON.stringify(held),
  );
  const m = out.payments;
  check(
    'F. every account keeps the money invariants (ordercheck: payments.AccountProblems)',
    m.problems.length === 0 && out.credit_notes.problems.length === 0,
    `${m.accounts} accounts, ${m.payments} payments${m.problems.length ? `; ${m.problems.length} broken: ${m.problems.slice(0, 6).join(' ')}` : ''}` +
      `${out.credit_notes.problems.length ? `; credit notes: ${out.credit_notes.problems.slice(0, 3).join(' ')}` : ''}`,
  );
}

// ---------------------------------------------------------------- main

// ---------------------------------------------------------------- G. a delivery's allocation under kill -9

/** One call of DynamoDB Local's raw API (as storeItem). */
async function storeCall(target, body) {
  const res = await fetch(`http://127.0.0.1:${storePort}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${target}`,
      authorization: 'AWS4-HMAC-SHA256 Credential=faults/20260101/eu-west-2/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0',
    },
    body: JSON.stringify({ TableName: storeEnv.TABLE_NAME, ...body }),
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`DynamoDB Local ${target} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return res.json();
}

const num = (/** @type {any} */ v) => Number(v?.N ?? 0);

/** G. (see the top of the file). */
async function allocationKilled(product) {
  const year = new Date().getUTCFullYear() + 1;
  await storeCall('UpdateItem', {
    Key: { pk: { S: `PRODUCT#${product.sku}` }, sk: { S: 'ITEM' } },
    UpdateExpression: 'SET fwd = :f',
    ExpressionAttributeValues: { ':f': { M: { from: { S: `${year}-09-01` }, by: { S: `${year}-06-30` } } } },
  });
  const stockBefore = num((await storeItem(`PRODUCT#${product.sku}`, 'ITEM'))?.stock);
  const staff = await staffUser();
  await csrfFor(staff);
  const buyers = await Promise.all(Array.from({ length: 8 }, (_, i) => payingBuyer(`fwd-${i}`, staff, i % 2 === 0)));
  let packs = 0;
  const forwardOrders = [];
  for (const [i, b] of buyers.entries()) {
    // packs_per_order packs are over the minimum order (ordercheck setup); one more each.
    const each = product.packs_per_order + i;
    await must('basket/set (forward)', await api(b, 'POST', '/api/basket/set', { token: b.token, sku: product.sku, quantity: each * product.pack_size }));
    const r = await must(
      'forward order',
      await api(b, 'POST', '/api/orders', { token: b.token, idempotency_key: `faults-${randomUUID()}`, delivery_option: 'standard', same_as_billing: true }),
    );
    forwardOrders.push({ uid: b.uid, id: r.body.id, kind: r.body.kind });
    packs += each;
  }
  check(
    'G. each buyer got a forward order',
    forwardOrders.every((o) => o.kind === 'forward'),
    forwardOrders.map((o) => `${o.id} ${o.kind}`).join(', '),
  );
  const received = Math.floor(packs / 2) * product.pack_size;
  const rec = await must(
    'record the delivery',
    await api(staff, 'POST', '/api/admin/receipts', { token: staff.token, lines: [{ sku: product.sku, units: received }] }),
  );
  const id = rec.body.id;
  const applying = api(staff, 'POST', `/api/admin/receipts/${id}/apply`, { token: staff.token, allocations: [] }, { limitMs: 30000 });
  // The kill lands once the plan is stored (the receipt applying), after a random few
  // more milliseconds: part-way through the forward orders' steps.
  const t0 = performance.now();
  let seen = 'recorded';
  while (seen === 'recorded' && performance.now() - t0 < 10000) {
    seen = /** @type {any} */ (await storeItem('RECEIPT', id))?.state?.S ?? 'recorded';
  }
  await sleep(rand(0, 15));
  await kill9(edge);
  const first = await applying;
  await startEdge();
  const mid = /** @type {any} */ (await storeItem('RECEIPT', id));
  const done = mid?.done?.SS?.length ?? 0;
  say(
    'faults',
    `G. the edge was killed ${Math.round(performance.now() - t0)} ms into the apply (answer ${first.status || first.error}); the receipt was ${mid?.state?.S}, ${done} of ${buyers.length} orders done`,
  );
  check('G. the kill landed while the delivery was being applied', mid?.state?.S === 'applying', `${mid?.state?.S}, ${done} orders done`);
  const again = await must('apply again', await persist(() => api(staff, 'POST', `/api/admin/receipts/${id}/apply`, { token: staff.token, allocations: [] })));
  check('G. the apply sent again answers the delivery applied', again.body.state === 'applied', again.body.state);
  await run(path.join(binDir, 'recover'), ['-invoice-after', '0s'], { env: toolEnv });

  const receipt = /** @type {any} */ (await storeItem('RECEIPT', id));
  const counted = num(receipt?.alloc?.M?.[product.sku]);
  const query = /** @type {{ Items: any[] }} */ (
    await storeCall('Query', { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: `FWD#${product.sku}` } }, ConsistentRead: true })
  );
  const lines = query.Items;
  const broken = lines.filter((l) => num(l.open) + num(l.allocated) + num(l.cancelled) !== num(l.ordered) || num(l.open) < 0);
  check(
    'G. every forward line keeps open + allocated + cancelled = ordered',
    broken.length === 0 && lines.length === buyers.length,
    `${lines.length} lines; ${broken.length} broken`,
  );
  const allocated = lines.reduce((s, l) => s + num(l.allocated), 0);
  check(
    'G. the lines hold what the receipt counts, no more than received',
    allocated === counted && counted <= received,
    `${allocated} on the lines, ${counted} counted, ${received} received`,
  );
  const outcomes = /** @type {Record<string, any>} */ (receipt?.outcomes?.M ?? {});
  const wrong = [];
  for (const l of lines) {
    const orderId = l.orderId.S;
    const outcome = outcomes[orderId]?.M;
    const release = outcome?.releaseId?.S;
    if (!release) {
      if (num(l.allocated) > 0) wrong.push(`${orderId}: ${num(l.allocated)} allocated, no release`);
      continue;
    }
    const o = /** @type {any} */ (await storeItem(`USER#${l.uid.S}`, `ORDER#${release}`));
    const shipped = (o?.lines?.L ?? []).reduce((s, x) => s + num(x.M.quantity), 0);
    if (shipped !== num(l.allocated)) wrong.push(`${orderId}: ${num(l.allocated)} allocated, ${shipped} on ${release}`);
    if (!o?.invoice) wrong.push(`${release} has no invoice`);
  }
  check("G. every allocated unit is on its forward order's one release order, invoiced", wrong.length === 0, wrong.slice(0, 4).join('; '));
  const stockAfter = num((await storeItem(`PRODUCT#${product.sku}`, 'ITEM'))?.stock);
  check(
    'G. the stock went up by the leftover once',
    stockAfter === stockBefore + received - counted,
    `${stockBefore} → ${stockAfter}; leftover ${received - counted}`,
  );
}

async function main() {
  if (!authHost) throw new Error('FIREBASE_AUTH_EMULATOR_HOST is not set: run the fault suite through scripts/test, or point it at a running emulator');
  // A release folder holds index.html.gz (compressible files are stored gzip-compressed,
  // scripts/target-dir.mjs); an export (site/out) holds index.html.
  if (!['index.html', 'index.html.gz'].some((f) => existsSync(path.join(siteDir, f)))) throw new Error(`no published site in ${siteDir}: set FAULTS_SITE_DIR`);
  const started = performance.now();
  const guard = setTimeout(async () => {
    say('faults', `FAIL the suite ran past ${SUITE_LIMIT_MS / 1000} s: stopping`);
    await stopAll(2000);
    process.exit(1);
  }, SUITE_LIMIT_MS);
  scratch = mkdtempSync(path.join(tmpdir(), 'tradeshop-faults-'));
  let stripePort;
  [storePort, edgePort, stripePort, ...mailPorts] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  shop = `http://127.0.0.1:${edgePort}`;
  storeEnv = {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${storePort}`,
    TABLE_NAME: 'tradeshop',
    AWS_REGION: 'eu-west-2',
    FIREBASE_PROJECT_ID: projectId,
    FIREBASE_AUTH_EMULATOR_HOST: authHost,
    STAGE: 'local',
    STORE_TIMEOUT_MS: String(timeoutMs),
    CSRF_SECRET: randomBytes(32).toString('hex'),
    API_RATE_LIMIT: '0', // every buyer of the suite is 127.0.0.1: no per-address limit
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(mailPorts[0]), // the suite's own maildev
    // The test run's stripe-mock (or the suite's own, below), the local key and secret, and
    // the edge's own address for the card payment's return pages; no other STRIPE_*
    // variable of the caller's.
    SITE_URL: shop,
    ...unsetOtherStripeVariables(process.env),
    ...stripeEnv(process.env.FAULTS_STRIPE_API_BASE || `http://127.0.0.1:${stripePort}`),
    STRIPE_WEBHOOK_PAUSE_MS: undefined, // only round F's edge pauses
  };
  // The commands the suite runs itself (seed, ordercheck, recover) are no buyer's request:
  // they get a long deadline; the edge gets the short one under test.
  toolEnv = { ...process.env, ...storeEnv, STORE_TIMEOUT_MS: '20000' };
  const fnDir = path.join(root, 'functions');
  const cmds = ['./cmd/ordercheck', './cmd/local', './cmd/seed', './cmd/catalogue', ...(existsSync(path.join(fnDir, 'cmd/recover')) ? ['./cmd/recover'] : [])];
  say('faults', `building ${cmds.join(' ')}; starting DynamoDB Local on :${storePort} (on disk in ${scratch})`);
  await Promise.all([
    run('go', ['build', '-o', binDir + '/', ...cmds], { cwd: fnDir }),
    startStore(),
    startMail(),
    // Run alone (not through scripts/test), round F needs a stripe-mock of its own.
    rounds.includes('F') && !process.env.FAULTS_STRIPE_API_BASE && startStripeMock({ port: stripePort, logFile: path.join(scratch, 'stripe-mock.log') }),
  ]);
  say('faults', `maildev: SMTP on :${mailPorts[0]}, inbox ${mail.url}/`);
  // A 600-product seed: each category's products are a prefix of the full seed's (seed.Generate),
  // so every product in this table has its page in the release; writing 3000 to an on-disk
  // store would take minutes.
  await run(path.join(binDir, 'seed'), ['-products', String(SEED_PRODUCTS), '-media', path.join(scratch, 'media')], { env: toolEnv });
  const setup = JSON.parse(
    await capture(path.join(binDir, 'ordercheck'), ['setup', '-products', '10', '-orders-each', '12', '-coupon', COUPON], {
      env: toolEnv,
    }),
  );
  await startEdge();
  say('faults', `edge on ${shop} serving ${siteDir}; ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Each round asked for, in turn; one that throws is a failed check and the next still runs.
  /** @type {[string, string, () => Promise<unknown>][]} */
  const all = [
    ['A', 'store paused', () => storePaused(setup.products[0])],
    ['B', 'kill -9', () => killNine(setup.products.slice(1, 7), setup.coupon)],
    ['C', 'mail server stopped', () => mailDown(setup.products[0])],
    ['D', 'catalogue import killed', () => importKilled(new Set(setup.products.map((p) => p.sku)))],
    ['E', 'payments under kill -9', () => paymentsKilled(setup.products.slice(7, 9), setup.coupon)],
    ['F', "a card payment's event under kill -9", () => cardEventKilled(setup.products[9], setup.coupon)],
    // Last: it makes round A's and C's product a forward product.
    ['G', "a delivery's allocation under kill -9", () => allocationKilled(setup.products[0])],
  ];
  for (const [letter, name, round] of all) {
    if (!rounds.includes(letter)) continue;
    try {
      await round();
    } catch (err) {
      check(`${letter}. ${name} ran to the end`, false, err.message);
    }
  }
  clearTimeout(guard);
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
  const failed = checks.filter((c) => !c.ok);
  say('faults', `${checks.length - failed.length} checks passed, ${failed.length} failed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (failed.length) {
    console.error(`faults: ${failed.map((c) => `${c.name}${c.detail ? ` (${c.detail})` : ''}`).join('; ')}`);
    process.exit(1);
  }
}

process.on('SIGTERM', async () => {
  await stopAll(2000);
  process.exit(130);
});
main().catch(async (err) => {
  console.error(`faults: ${err.message}`);
  await stopAll(2000);
  process.exit(1);
});
