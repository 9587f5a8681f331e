// The project's bench command: prints the figures docs/PERFORMANCE.md records.
//
//   scripts/bench                 # every benchmark
//   scripts/bench stack build     # only these
//   scripts/bench calls           # the DynamoDB calls of every /api endpoint (no site build)
//
// stack: seconds from nothing to a serving shop (DynamoDB Local and the Auth emulator
//        side by side, seed of the default catalogue, site build, edge listening), as the
//        test command starts it.
// build: full build time (snapshot + next build + payloads + meta) and pages built for
//        the default seed and for BENCH_LARGE_PRODUCTS (default 50,000) products.
// search: GET /api/search latency p50/p99 over 1,000 queries at 3,000 and 50,000
//        products (budget: p99 under 10 ms at 50,000).
// js:    first-load JavaScript (gzip) of a category page (budget: under 110 kB).
// basket: basket add and shoppingCartSmall latency p50/p99 under 50 concurrent signed-in
//        clients on loopback (20 rounds each).
// orders: POST /api/orders under 50 concurrent signed-in buyers on loopback (orders/s,
//        p50/p99; 500 orders of 20 lines, at most 120 s), and the DynamoDB calls one
//        order placement makes at 1, 20, 94 and 200 lines, counted by an SDK middleware.
// quickorder: a quick order's check of 500 SKUs (POST /api/skus) and add of 200 lines in
//        one call (POST /api/basket/addMany), p50/p99 of one buyer on loopback (50 checks,
//        30 adds), and the DynamoDB calls each makes, counted by an SDK middleware.
// calls: the DynamoDB calls one request to every /api route makes (a buyer with a 20-line
//        basket, a coupon and a saved list; the back office as staff), and those of the
//        requests that could grow with the basket at 1, 20 and 200 lines, counted by an SDK
//        middleware (functions/cmd/benchcalls, the handlers in-process on a table of its
//        own). Asked for alone (scripts/bench calls) it starts only the store and the Auth
//        emulator: no seed, site build or edge.
// lighthouse: mobile Lighthouse scores of the home, a category and a product page
//        (budget: performance 95+, accessibility, best practices and SEO 100).
// Everything runs on loopback against an in-memory DynamoDB Local, and stops by itself.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  binDir, buildGoCommands, capture, ensureNpmPackages, freePort, root, run, say, startAuthEmulator,
  startService, stopAll, stopOnSignals, waitForPort, writeFirebaseConfig,
} from './lib.mjs';
import { ensureJava, startDynamoDBLocal } from './dynamodb-local.mjs';
import { buildSite, exportDir, snapshotDir } from './build.mjs';
import { firstLoadJS } from './first-load-js.mjs';
import { basketLatency } from './bench-basket.mjs';
import { ordersLoad } from './bench-orders.mjs';
import { quickOrderLatency } from './bench-quickorder.mjs';
import { lighthouseScores } from './lighthouse.mjs';

const wanted = new Set(process.argv.slice(2));
const want = (name) => wanted.size === 0 || wanted.has(name);
// Only calls asked for: it needs the store and the Auth emulator, not the Go commands, the
// seed, the site build or the edge.
const callsOnly = wanted.size > 0 && [...wanted].every((name) => name === 'calls');
const largeProducts = Number(process.env.BENCH_LARGE_PRODUCTS ?? 50000);
const figures = [];
const record = (name, value, unit, note = '') => {
  figures.push({ name, value, unit, note });
  say('bench', `${name}: ${value} ${unit} ${note}`);
};
const secs = (t0) => Number(((performance.now() - t0) / 1000).toFixed(1));

async function main() {
  stopOnSignals();
  await ensureNpmPackages();
  if (!callsOnly) await buildGoCommands();
  const scratch = mkdtempSync(path.join(tmpdir(), 'tradeshop-bench-'));
  // BENCH_PORT_BASE pins the five ports to base..base+4 (on a shared machine); else free ones.
  const portBase = Number(process.env.BENCH_PORT_BASE ?? 0);
  const [dynamoPort, authPort, hubPort, loggingPort, edgePort] = portBase
    ? Array.from({ length: 5 }, (_, i) => portBase + i)
    : await Promise.all(Array.from({ length: 5 }, freePort));
  const env = {
    ...process.env,
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoPort}`,
    AWS_REGION: 'eu-west-2',
    TABLE_NAME: 'bench',
    FIREBASE_PROJECT_ID: 'demo-tradeshop',
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${authPort}`,
    STAGE: 'local',
    API_RATE_LIMIT: '0', // 50 clients, all 127.0.0.1: no per-address limit
    SITE_URL: `http://127.0.0.1:${edgePort}`,
    AUTH_EMULATOR_URL: `http://127.0.0.1:${authPort}`,
  };
  const media = path.join(scratch, 'media');

  // The stack start: the same steps, in the same order, as scripts/test (the Go commands
  // are built before the clock starts here).
  await ensureJava();
  const t0 = performance.now();
  const [store, tAuth] = await Promise.all([
    startDynamoDBLocal({ port: dynamoPort, logFile: path.join(scratch, 'dynamodb.log') }),
    startAuthEmulator({
      projectId: 'demo-tradeshop',
      configFile: writeFirebaseConfig(scratch, { authPort, hubPort, loggingPort }),
      authPort,
      logFile: path.join(scratch, 'auth.log'),
    }).then(() => secs(t0)),
  ]);
  say('bench', `DynamoDB Local ${store.version} answers on :${dynamoPort}`);
  if (callsOnly) {
    await callsBench({ cwd: path.join(root, 'functions'), env });
    return finish(scratch);
  }
  const t2 = performance.now();
  await run(path.join(binDir, 'seed'), ['-media', media], { env });
  const tSeed = secs(t2);
  const first = await buildSite({ env });
  const edge = startService('edge', path.join(binDir, 'local'), [], {
    env: { ...env, PORT: String(edgePort), MEDIA_DIR: media },
    logFile: path.join(scratch, 'edge.log'),
  });
  await waitForPort(edgePort, { child: edge });
  if (want('stack')) {
    record('smoke stack start', secs(t0), 's',
      `(DynamoDB Local ${store.seconds.toFixed(1)}s and Auth emulator ${tAuth}s side by side, seed ${tSeed}s, build ${first.seconds.toFixed(1)}s, edge up)`);
  }

  if (want('calls')) await callsBench({ cwd: path.join(root, 'functions'), env });

  const categoryPath = '/outlet/section/female-birthday-cards/101/';
  if (want('js')) {
    const js = firstLoadJS(exportDir, categoryPath);
    record('first-load JS, category page', Number((js.gzipBytes / 1000).toFixed(1)), 'kB gzip',
      `(${js.files} scripts, ${(js.rawBytes / 1000).toFixed(0)} kB raw; budget 110 kB)`);
  }
  if (want('lighthouse')) {
    const product = JSON.parse(readFileSync(path.join(snapshotDir, 'catalogue.json'), 'utf8')).productPaths[10];
    const base = `http://127.0.0.1:${edgePort}`;
    for (const r of await lighthouseScores([`${base}/`, base + categoryPath, base + product])) {
      record(`lighthouse mobile ${new URL(r.url).pathname}`, r.performance, 'performance',
        `(accessibility ${r.accessibility}, best practices ${r.bestPractices}, SEO ${r.seo}; LCP ${r.lcpMs} ms, TBT ${r.tbtMs} ms)`);
    }
  }
  if (want('basket')) {
    const r = await basketLatency(`http://127.0.0.1:${edgePort}`, `127.0.0.1:${authPort}`, { clients: 50, rounds: 20 });
    record('basket add, 50 clients', r.add.p99, 'ms p99', `(p50 ${r.add.p50} ms over ${r.add.n} adds)`);
    record('shoppingCartSmall, 50 clients', r.cart.p99, 'ms p99', `(p50 ${r.cart.p50} ms over ${r.cart.n} reads)`);
  }
  if (want('orders')) {
    const goEnv = { cwd: path.join(root, 'functions'), env };
    const products = JSON.parse(await capture('go', ['run', './cmd/benchorders', '-products', '1000'], goEnv));
    const r = await ordersLoad(`http://127.0.0.1:${edgePort}`, `127.0.0.1:${authPort}`, products,
      { concurrency: 50, orders: Number(process.env.BENCH_ORDERS ?? 500), lines: 20, seconds: 120 });
    const other = Object.entries(r.statuses).filter(([s]) => s !== '201').map(([s, n]) => `${n} answered ${s}`);
    record(`orders placed/s, ${r.concurrency} buyers`, r.perSecond, 'orders/s',
      `(${r.orders} orders of ${r.lines} lines in ${r.seconds} s${other.length ? '; ' + other.join(', ') : ''}; load average ${r.load.before} before, ${r.load.after} after)`);
    record(`place order, ${r.concurrency} buyers`, r.p99, 'ms p99', `(p50 ${r.p50} ms, max ${r.max} ms over ${r.orders} orders)`);
    const out = await capture('go', ['run', './cmd/benchorders', '-calls', '1,20,94,200'], goEnv);
    for (const line of out.trim().split('\n')) {
      const m = line.match(/order calls (\d+) lines, ([\w ]+) \(([^)]+)\): (\d+) calls \((\d+) attempts\): (.*)/);
      if (m) record(`order calls, ${m[1]} lines, ${m[2]}`, Number(m[4]), 'calls', `(${m[3]}; ${m[6]}${m[5] !== m[4] ? `; ${m[5]} attempts` : ''})`);
    }
  }
  if (want('quickorder')) {
    const goEnv = { cwd: path.join(root, 'functions'), env };
    const products = JSON.parse(await capture('go', ['run', './cmd/benchorders', '-products', '1000'], goEnv));
    const r = await quickOrderLatency(`http://127.0.0.1:${edgePort}`, `127.0.0.1:${authPort}`, products);
    record(`quick order check, ${r.lookupSKUs} SKUs`, r.lookup.p99, 'ms p99', `(p50 ${r.lookup.p50} ms over ${r.lookup.n} checks, one buyer)`);
    record(`quick order add, ${r.addLines} lines`, r.add.p99, 'ms p99', `(p50 ${r.add.p50} ms over ${r.add.n} adds, each to an empty basket)`);
    const out = await capture('go', ['run', './cmd/benchorders', '-quick', `${r.lookupSKUs},${r.addLines}`], goEnv);
    for (const line of out.trim().split('\n')) {
      const m = line.match(/quick order calls, ([\w ]+): (\d+) calls \((\d+) attempts\): (.*)/);
      if (m) record(`quick order calls, ${m[1]}`, Number(m[2]), 'calls', `(${m[4]})`);
    }
  }
  if (want('search')) {
    const out = await capture('go', ['run', './cmd/benchsearch', '-products', `3000,${largeProducts}`, '-queries', '1000'], { cwd: path.join(root, 'functions') });
    for (const line of out.trim().split('\n')) {
      const m = line.match(/search (\d+) products: index build ([\d.]+)s; (\d+) queries p50 ([\d.]+)ms p99 ([\d.]+)ms max ([\d.]+)ms/);
      if (m) record(`search p99, ${m[1]} products`, Number(m[5]), 'ms', `(p50 ${m[4]} ms, max ${m[6]} ms over ${m[3]} queries; index built in ${m[2]} s; budget p99 < 10 ms at 50,000)`);
      const b = line.match(/search (\d+) products, buyer phrases: (\d+) queries p50 ([\d.]+)ms p99 ([\d.]+)ms max ([\d.]+)ms/);
      if (b) record(`search p99, buyer phrases, ${b[1]}`, Number(b[4]), 'ms', `(p50 ${b[3]} ms, max ${b[5]} ms over ${b[2]} queries)`);
    }
  }

  if (want('import')) {
    const out = await capture('go', ['run', './cmd/benchimport', '-products', String(largeProducts)],
      { cwd: path.join(root, 'functions'), env: { ...env, TABLE_NAME: 'bench-import' } });
    for (const line of out.trim().split('\n')) {
      const m = line.match(/import (\d+) rows, ([\w ]+): check ([\d.]+)s apply ([\d.]+)s \(([^)]+)\)/);
      if (m) record(`catalogue import, ${m[1]} rows, ${m[2]}`, Number((Number(m[3]) + Number(m[4])).toFixed(1)), 's', `(check ${m[3]} s, apply ${m[4]} s; ${m[5]})`);
    }
  }

  if (want('build')) {
    const again = await buildSite({ env });
    record(`full build, ${again.products} products`, Number(again.seconds.toFixed(1)), 's',
      `(${again.pages} prerendered pages with payloads, ${again.htmlFiles} HTML files)`);

    const bigEnv = { ...env, TABLE_NAME: 'bench-large' };
    const ts = performance.now();
    await run(path.join(binDir, 'seed'), ['-products', String(largeProducts), '-media', media], { env: bigEnv });
    record(`seed load, ${largeProducts} products`, secs(ts), 's');
    const big = await buildSite({ env: bigEnv });
    record(`full build, ${big.products} products`, Number(big.seconds.toFixed(1)), 's',
      `(${big.pages} prerendered pages with payloads, ${big.htmlFiles} HTML files)`);
  }

  await finish(scratch);
}

/** The calls bench: one figure per request of benchcalls' two tables (every route, then
 * the requests that could grow with the basket, at each basket size). */
async function callsBench(goEnv) {
  const out = await capture('go', ['run', './cmd/benchcalls', '-sizes', '1,20,200'], goEnv);
  for (const line of out.trim().split('\n')) {
    const e = line.match(/^\| (\w+) \| `([^`]+)`: (.+?) \| (\d+) \| (.+) \|$/);
    if (e) record(`calls ${e[2]} (${e[3]})`, Number(e[4]), 'calls', `(${e[1]}: ${e[5]})`);
    const g = line.match(/^\| (\w+): (.+?) \| (\d+) \| (\d+) \| (\d+) \| (.+) \|$/);
    if (g) record(`calls ${g[1]}, ${g[3]}-line basket`, Number(g[5]), 'calls', `(${g[2]}; ${g[4]} categories; ${g[6]})`);
  }
}

async function finish(scratch) {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
  console.log('\nFigures');
  for (const f of figures) console.log(`  ${f.name.padEnd(36)} ${String(f.value).padStart(8)} ${f.unit}  ${f.note}`);
}

main().catch(async (err) => {
  console.error(`bench: ${err.message}`);
  await stopAll();
  process.exit(1);
});
