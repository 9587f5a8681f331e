// @ts-check
// Basket latency under load: N signed-in clients (Auth emulator users) on loopback each
// add to their basket and read it back through the edge, a bounded number of times.
// Answers p50/p99 per operation. Used by the bench command.

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** A signed-in client: an Auth emulator user's ID token and a CSRF token with its cookie. */
export async function newClient(base, authHost, i) {
  const email = `bench-${Date.now()}-${i}@shop.test`;
  const res = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct-horse-1', returnSecureToken: true }),
  });
  const { idToken } = /** @type {{ idToken: string }} */ (await res.json());
  const c = await fetch(`${base}/api/csrf`);
  const { token } = /** @type {{ token: string }} */ (await c.json());
  const cookie = (c.headers.get('set-cookie') ?? '').split(';')[0];
  return { idToken, csrf: token, cookie };
}

async function timed(fn) {
  const t0 = performance.now();
  const res = await fn();
  if (!res.ok) throw new Error(`status ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - t0;
}

/** Runs the load and answers { add: {p50, p99, n}, cart: {p50, p99, n} } in ms. */
export async function basketLatency(base, authHost, { clients = 50, rounds = 20 } = {}) {
  const search = /** @type {{ hits: { sku: string, in_stock: boolean, pack_size: number }[] }} */ (await (await fetch(`${base}/api/search?q=birthday`)).json());
  const products = search.hits.filter((h) => h.in_stock);
  const users = await Promise.all(Array.from({ length: clients }, (_, i) => newClient(base, authHost, i)));
  const add = [];
  const cart = [];
  await Promise.all(
    users.map(async (u, i) => {
      const headers = { 'content-type': 'application/json', 'x-csrf-token': u.csrf, cookie: u.cookie };
      for (let r = 0; r < rounds; r++) {
        const p = products[(i + r) % products.length];
        add.push(
          await timed(() =>
            fetch(`${base}/api/basket/add`, { method: 'POST', headers, body: JSON.stringify({ token: u.idToken, sku: p.sku, quantity: p.pack_size }) }),
          ),
        );
        cart.push(await timed(() => fetch(`${base}/api/shoppingCartSmall`, { method: 'POST', headers, body: JSON.stringify({ token: u.idToken }) })));
      }
    }),
  );
  const sum = (xs) => {
    xs.sort((a, b) => a - b);
    return { p50: Number(pct(xs, 0.5).toFixed(1)), p99: Number(pct(xs, 0.99).toFixed(1)), n: xs.length };
  };
  return { add: sum(add), cart: sum(cart), clients };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, authHost] = process.argv.slice(2);
  basketLatency(base, authHost).then((r) => console.log(JSON.stringify(r)));
}
