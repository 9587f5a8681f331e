// @ts-check
// Quick order latency: one signed-in buyer on loopback checks a quick order of many SKUs
// (POST /api/skus) and adds many lines in one call (POST /api/basket/addMany), each a
// bounded number of times, through the edge. Each add goes to a basket of its own (a new
// buyer), so every add writes the same number of new lines. Used by the bench command.

import { newClient } from './bench-basket.mjs';

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** A signed-in buyer with the headers of its writes. */
async function newBuyer(base, authHost, i) {
  const c = await newClient(base, authHost, `quick-${i}`);
  return { idToken: c.idToken, headers: { 'content-type': 'application/json', 'x-csrf-token': c.csrf, cookie: c.cookie } };
}

async function timed(fn, check) {
  const t0 = performance.now();
  const res = await fn();
  const body = await res.json();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`status ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  check(body);
  return ms;
}

const summary = (xs) => {
  xs.sort((a, b) => a - b);
  return { p50: Number(pct(xs, 0.5).toFixed(1)), p99: Number(pct(xs, 0.99).toFixed(1)), n: xs.length };
};

/** products: {skus, packSize} (benchorders -products). Answers { lookup, add } with
 * {p50, p99, n} in ms. */
export async function quickOrderLatency(base, authHost, products, { lookupSKUs = 500, addLines = 200, lookups = 50, adds = 30 } = {}) {
  if (products.skus.length < Math.max(lookupSKUs, addLines)) throw new Error(`only ${products.skus.length} bench products`);
  const lines = (n) => products.skus.slice(0, n).map((sku) => ({ sku, quantity: products.packSize }));
  const buyers = await Promise.all(Array.from({ length: adds + 1 }, (_, i) => newBuyer(base, authHost, i)));
  const lookup = [];
  const body = JSON.stringify({ token: buyers[0].idToken, lines: lines(lookupSKUs) });
  // Three checks first, not counted: the store's and the edge's first requests (JIT, pools).
  for (let i = 0; i < 3; i++) await fetch(`${base}/api/skus`, { method: 'POST', headers: buyers[0].headers, body }).then((r) => r.arrayBuffer());
  for (let i = 0; i < lookups; i++) {
    lookup.push(
      await timed(
        () => fetch(`${base}/api/skus`, { method: 'POST', headers: buyers[0].headers, body }),
        (b) => {
          if (b.lines.length !== lookupSKUs || b.lines.some((l) => l.problem)) throw new Error('a bench SKU was refused');
        },
      ),
    );
  }
  const add = [];
  for (const b of buyers.slice(1)) {
    add.push(
      await timed(
        () => fetch(`${base}/api/basket/addMany`, { method: 'POST', headers: b.headers, body: JSON.stringify({ token: b.idToken, lines: lines(addLines) }) }),
        (added) => {
          // The add answers what changed: the basket's line count and each line added to.
          if (added.lines !== addLines || added.changed.length !== addLines) throw new Error(`the basket holds ${added.lines} lines, not ${addLines}`);
        },
      ),
    );
  }
  return { lookup: summary(lookup), add: summary(add), lookupSKUs, addLines };
}
