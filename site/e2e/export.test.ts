import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { payloadURL } from '../lib/prefetch';

// Checks every prerendered page of the site the tests serve, and its sitemap: the release
// folder's site (RELEASE_DIR/site, what the edge serves), not site/out, which after a
// partial publish (the back office's, in catalogue-import.test.ts) holds only the pages
// that publish rendered; the release carries the others (docs/build-and-release.md
// "Partial builds"). The release folder stores compressible files gzip-compressed, as
// {file}.gz (scripts/target-dir.mjs): siteFile reads either form.
const root = path.resolve(import.meta.dirname, '..', '..');
const out = process.env.RELEASE_DIR ? path.join(process.env.RELEASE_DIR, 'site') : path.join(root, 'site', 'out');
const catalogue = JSON.parse(readFileSync(path.join(root, 'builds', 'snapshot', 'catalogue.json'), 'utf8')) as {
  pages: string[];
  product_paths: string[];
  menu: { ranges: { path: string }[]; groups: { categories: { path: string }[] }[] };
};

/** A file of the site as the edge serves it: `file`, or `file.gz` decompressed. */
function siteFile(...parts: string[]): string {
  const file = path.join(out, ...parts);
  return existsSync(file) ? readFileSync(file, 'utf8') : gunzipSync(readFileSync(`${file}.gz`)).toString('utf8');
}

/** A file's name without the .gz of its stored form. */
const storedAs = (name: string) => name.replace(/\.gz$/, '');

function htmlPages(): string[] {
  return readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && storedAs(e.name) === 'index.html')
    .map((e) => `/${path.relative(out, e.parentPath)}/`.replace(/^\/\.?\/$/, '/').replace('//', '/'))
    .filter((p) => !p.startsWith('/_not-found/') && p !== '/404/');
}

const pages = htmlPages();

describe('every prerendered page', () => {
  it('keeps one RSC file, index.txt, beside its HTML: no per-segment or _full copies', () => {
    const extra = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.startsWith('__next.') && storedAs(e.name).endsWith('.txt'))
      .map((e) => path.relative(out, path.join(e.parentPath, e.name)));
    expect(extra.slice(0, 5)).toEqual([]);
    for (const p of ['/', '/outlet/section/female-birthday-cards/101/', catalogue.product_paths[0]!]) {
      expect(siteFile(p, 'index.txt').length).toBeGreaterThan(1000);
    }
  });

  it('has exactly one h1, a title, a description and a canonical URL; its JSON-LD parses', () => {
    expect(pages.length).toBeGreaterThan(catalogue.pages.length);
    const problems: string[] = [];
    const titles = new Map<string, string>();
    const descriptions = new Map<string, string>();
    for (const p of pages) {
      const html = siteFile(p, 'index.html');
      const h1s = html.match(/<h1[\s>]/g)?.length ?? 0;
      const title = html.match(/<title>([^<]*)<\/title>/)?.[1];
      const description = html.match(/<meta name="description" content="([^"]*)"/)?.[1];
      const canonical = html.match(/<link rel="canonical" href="([^"]*)"/)?.[1];
      if (h1s !== 1) problems.push(`${p}: ${h1s} h1`);
      if (!title) problems.push(`${p}: no title`);
      if (!description) problems.push(`${p}: no meta description`);
      if (!canonical || !canonical.endsWith(p)) problems.push(`${p}: canonical ${canonical}`);
      const lds = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => m[1]!);
      for (const ld of lds) {
        try {
          const data = JSON.parse(ld) as { '@context'?: string; '@type'?: string };
          if (data['@context'] !== 'https://schema.org' || !data['@type']) problems.push(`${p}: JSON-LD without @context/@type`);
        } catch {
          problems.push(`${p}: JSON-LD does not parse`);
        }
      }
      const isCatalogue = catalogue.pages.includes(p);
      if (isCatalogue && lds.length === 0) problems.push(`${p}: no JSON-LD`);
      if (catalogue.product_paths.includes(p) && !lds.some((l) => l.includes('"@type":"Product"') && l.includes('"offers"')))
        problems.push(`${p}: no Product JSON-LD`);
      if (title && titles.has(title)) problems.push(`${p}: title also on ${titles.get(title)}`);
      if (description && descriptions.has(description)) problems.push(`${p}: description also on ${descriptions.get(description)}`);
      if (title) titles.set(title, p);
      if (description) descriptions.set(description, p);
      if (!html.includes('property="og:title"')) problems.push(`${p}: no Open Graph title`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('in the back office is noindex and draws nothing of it before the staff check', () => {
    const admin = pages.filter((p) => p.startsWith('/admin/'));
    expect(admin.sort()).toEqual([
      '/admin/',
      '/admin/accounts/',
      '/admin/balances/',
      '/admin/catalogue/',
      '/admin/coupons/',
      '/admin/export/',
      '/admin/forward/',
      '/admin/health/',
      '/admin/orders/',
      '/admin/price-groups/',
      '/admin/receiving/',
      '/admin/stock/',
    ]);
    for (const p of admin) {
      const html = siteFile(p, 'index.html');
      expect(html, p).toContain('<meta name="robots" content="noindex"/>');
      expect(html, p).not.toContain('admin-nav');
    }
  });

  it('has its _payload.json beside it (catalogue and content pages)', () => {
    // Client-rendered pages (account, checkout, search) have none, by the prefetcher's rule.
    const missing = pages
      .filter((p) => payloadURL(p, 'build') !== null)
      .filter((p) => {
        try {
          JSON.parse(siteFile(p, '_payload.json'));
          return false;
        } catch {
          return true;
        }
      });
    expect(missing).toEqual([]);
  });
});

describe('the sitemap', () => {
  const index = siteFile('sitemap.xml');
  const shards = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const listed = shards.flatMap((s) => [...siteFile(s).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname));

  it('is an index of shards of at most 50,000 URLs', () => {
    expect(index).toContain('<sitemapindex');
    expect(shards.length).toBeGreaterThan(0);
    for (const s of shards) expect([...siteFile(s).matchAll(/<url>/g)].length).toBeLessThanOrEqual(50_000);
  });

  it('lists every range, category and product page exactly once', () => {
    const counts = new Map<string, number>();
    for (const p of listed) counts.set(p, (counts.get(p) ?? 0) + 1);
    const want = [
      ...catalogue.menu.ranges.map((r) => r.path),
      ...catalogue.menu.groups.flatMap((g) => g.categories.map((c) => c.path)),
      ...catalogue.product_paths,
    ];
    for (const p of want) expect(counts.get(p), p).toBe(1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(listed.some((p) => p.startsWith('/account/') || p.startsWith('/admin/') || p.startsWith('/search/'))).toBe(false);
  });

  it('robots.txt keeps account, back office, checkout and search out and names the sitemap', () => {
    const robots = siteFile('robots.txt');
    for (const d of ['/account/', '/admin/', '/checkout/', '/search/']) expect(robots).toContain(`Disallow: ${d}`);
    expect(robots).toMatch(/Sitemap: .*\/sitemap\.xml/);
  });
});
