// @ts-check
// Order placement under load: `orders` signed-in buyers (Auth emulator users, billing
// saved through POST /api/billing, a basket of `lines` lines filled through
// /api/basket/addMany) are made ready first; then `concurrency` of them at a time place
// their order (POST /api/orders through the edge, on loopback) until every order is
// placed or `seconds` have passed. Only the Place Order requests are timed. Used by the
// bench command (scripts/bench orders); products come from `benchorders -products`.
import { loadavg } from 'node:os';

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Runs fn over items, at most limit at a time. */
async function eachLimit(items, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

async function ok(res, what) {
  if (!res.ok) throw new Error(`${what}: status ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Signs a buyer up, saves billing and fills a basket of `lines` distinct products. */
async function readyBuyer(base, authHost, i, products, lines) {
  const email = `bench-orders-${Date.now()}-${i}@shop.test`;
  const { idToken } = await ok(
    await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct-horse-1', returnSecureToken: true }),
    }),
    'sign up',
  );
  const c = await fetch(`${base}/api/csrf`);
  const { token } = await ok(c, 'csrf');
  const headers = { 'content-type': 'application/json', 'x-csrf-token': token, cookie: (c.headers.get('set-cookie') ?? '').split(';')[0] };
  const billing = {
    company: `Bench Buyer ${i} Ltd`,
    contact: 'Pat Bench',
    payment_method: 'proforma',
    address: { line1: '1 High St', town: 'Exampleton', postcode: 'EX1 2AB' },
  };
  await ok(await fetch(`${base}/api/billing`, { method: 'POST', headers, body: JSON.stringify({ token: idToken, billing }) }), 'billing');
  // `lines` distinct products, spread over the bench products so buyers share some.
  const start = (i * 37) % products.skus.length;
  const basket = Array.from({ length: lines }, (_, k) => ({ sku: products.skus[(start + k * 7) % products.skus.length], quantity: products.packSize }));
  await ok(await fetch(`${base}/api/basket/addMany`, { method: 'POST', headers, body: JSON.stringify({ token: idToken, lines: basket }) }), 'basket add');
  return { idToken, headers, key: `bench-orders-${Date.now()}-${i}-key` };
}

/**
 * Answers { orders, seconds, perSecond, p50, p99, max, statuses, concurrency, lines,
 * load: {before, after} } (latencies in ms; load is the 1-minute load average).
 */
export async function ordersLoad(base, authHost, products, { concurrency = 50, orders = 500, lines = 20, seconds = 120 } = {}) {
  if (products.skus.length < lines) throw new Error(`need at least ${lines} bench products`);
  const buyers = [];
  await eachLimit(
    Array.from({ length: orders }, (_, i) => i),
    concurrency,
    async (i) => {
      buyers[i] = await readyBuyer(base, authHost, i, products, lines);
    },
  );
  const lat = [];
  const statuses = {};
  const before = loadavg()[0];
  const t0 = performance.now();
  const stopAt = t0 + seconds * 1000;
  await eachLimit(buyers, concurrency, async (b) => {
    if (performance.now() > stopAt) return; // bounded in time as well as in count
    const s = performance.now();
    const res = await fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: b.headers,
      body: JSON.stringify({ token: b.idToken, idempotency_key: b.key, delivery_option: 'standard', same_as_billing: true }),
    });
    const body = /** @type {{ lines?: unknown[] }} */ (await res.json());
    const ms = performance.now() - s;
    const placed = res.status === 201 && body.lines?.length === lines;
    const kind = placed || res.status !== 201 ? String(res.status) : `201 with ${body.lines?.length} lines`;
    statuses[kind] = (statuses[kind] ?? 0) + 1;
    if (placed) lat.push(ms);
  });
  const wall = (performance.now() - t0) / 1000;
  const after = loadavg()[0];
  lat.sort((a, b) => a - b);
  const r = (x) => Number(x.toFixed(1));
  return {
    orders: lat.length,
    seconds: r(wall),
    perSecond: r(lat.length / wall),
    p50: r(pct(lat, 0.5) ?? 0),
    p99: r(pct(lat, 0.99) ?? 0),
    max: r(lat.at(-1) ?? 0),
    statuses,
    concurrency,
    lines,
    load: { before: r(before), after: r(after) },
  };
}
