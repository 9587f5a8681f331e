// @ts-check
// The floor the shop's figures are read against: a blank Next.js app (one page,
// <h1>hello</h1>, `output: 'export'`; and /image/, the same with one card-sized image) built with the same next, react and react-dom as
// site/ (it resolves the same node_modules), and a small static server to put it on
// loopback for Lighthouse. Used by the bench's `js` and `lighthouse` figures.
//
//   node scripts/bench-blank.mjs        # build it and print its first-load JS
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root, run, say } from './lib.mjs';
import { cacheControlFor, contentTypeFor } from './export-manifest.mjs';

/** Where the blank app is made: under .bench/ (gitignored), inside the repository, so it
 * resolves the root node_modules that site/ resolves next and react from. */
export const blankDir = path.join(root, '.bench', 'blank-next');

const files = {
  'package.json': JSON.stringify({ name: 'blank-next', private: true }, null, 2),
  'next.config.mjs': "export default { output: 'export' };\n",
  'app/layout.jsx': [
    "export const metadata = { title: 'hello' };",
    '',
    'export default function RootLayout({ children }) {',
    '  return (',
    '    <html lang="en">',
    '      <body>{children}</body>',
    '    </html>',
    '  );',
    '}',
    '',
  ].join('\n'),
  'app/page.jsx': 'export default function Page() {\n  return <h1>hello</h1>;\n}\n',
  // Issue 40's LCP experiment: the same blank page with one image the size of a category
  // page's first card (160 px, eager, high priority, an 0.8 kB SVG like the seed's), so
  // its largest paint is an image, as the shop's catalogue pages' are.
  'app/image/page.jsx': [
    'export default function Page() {',
    '  return (',
    '    <>',
    '      <h1>hello</h1>',
    '      <img src="/card.svg" alt="" width={160} height={160} loading="eager" fetchPriority="high" />',
    '    </>',
    '  );',
    '}',
    '',
  ].join('\n'),
  'public/card.svg': cardSvg(),
};

/** A 160 px card picture like the seed's product images (a tinted square, a card, dots). */
function cardSvg() {
  const dots = Array.from(
    { length: 12 },
    (_, i) => `<circle cx="${20 + ((i * 37) % 120)}" cy="${20 + ((i * 53) % 120)}" r="${4 + (i % 10)}" fill="#d81b60" opacity=".35"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160"><rect width="160" height="160" fill="#fce4ec"/><rect x="28" y="14" width="104" height="132" rx="4" fill="#fff" stroke="#d81b60" stroke-width="3"/>${dots.join('')}</svg>\n`;
}

/** The version of a package as a folder resolves it. */
export function resolvedVersion(fromDir, pkg) {
  const require = createRequire(path.join(fromDir, 'package.json'));
  return JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;
}

/** The versions of next, react and react-dom site/ and dir resolve; throws when they differ. */
export function checkSameVersions(dir, siteDir = path.join(root, 'site')) {
  const versions = {};
  for (const pkg of ['next', 'react', 'react-dom']) {
    const site = resolvedVersion(siteDir, pkg);
    const blank = resolvedVersion(dir, pkg);
    if (site !== blank) throw new Error(`the blank app resolves ${pkg} ${blank}, site/ resolves ${site}`);
    versions[pkg] = site;
  }
  return versions;
}

/** Writes and builds the blank app (`next build`, Turbopack as the site's build uses);
 * answers { outDir, versions, seconds }. */
export async function buildBlankNext(dir = blankDir) {
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  const versions = checkSameVersions(dir);
  say('bench', `building a blank Next ${versions.next} / React ${versions.react} export in ${path.relative(root, dir)}`);
  const next = createRequire(path.join(dir, 'package.json')).resolve('next/dist/bin/next');
  const t0 = performance.now();
  await run(process.execPath, [next, 'build'], { cwd: dir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  return { outDir: path.join(dir, 'out'), versions, seconds: (performance.now() - t0) / 1000 };
}

/** The file a request path is served from in a static export: "/" and "/x/" are their
 * index.html, "/x" is x.html where there is one; null for a path outside the folder. */
export function fileFor(dir, urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  const base = path.resolve(dir);
  const file = path.join(base, rel.endsWith('/') ? `${rel}index.html` : rel);
  if (!file.startsWith(base + path.sep)) return null;
  if (existsSync(file) && statSync(file).isFile()) return file;
  if (existsSync(`${file}.html`)) return `${file}.html`;
  return null;
}

/** Serves a static export on loopback, gzipped where the client accepts it and with the
 * shop's Cache-Control and Content-Type (export-manifest.mjs), as the local edge serves
 * the shop; answers { url, close }. */
export function serveStatic(dir) {
  const gz = new Map();
  const server = http.createServer((req, res) => {
    let file = fileFor(dir, req.url ?? '/');
    let status = 200;
    if (!file) {
      status = 404;
      file = fileFor(dir, '/404.html');
      if (!file) return res.writeHead(404).end('not found');
    }
    const rel = path.relative(dir, file).split(path.sep).join('/');
    const headers = { 'Content-Type': contentTypeFor(rel), 'Cache-Control': cacheControlFor(rel), Vary: 'Accept-Encoding' };
    let body = readFileSync(file);
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      if (!gz.has(file)) gz.set(file, gzipSync(body));
      body = gz.get(file);
      headers['Content-Encoding'] = 'gzip';
    }
    res.writeHead(status, { ...headers, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`,
        close: () => new Promise((/** @type {(v?: void) => void} */ done) => server.close(() => done())),
      }),
    );
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { firstLoadJS } = await import('./first-load-js.mjs');
  const blank = await buildBlankNext();
  console.log(JSON.stringify({ ...blank, firstLoadJS: firstLoadJS(blank.outDir, '/') }));
}
