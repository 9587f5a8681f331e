import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CatalogueFile, CategoryPage, Home, ProductPage, RangePage } from './types';

// The build snapshot written by functions/cmd/snapshot. Read at build time only: the
// export is static, so these reads never happen in a browser.
const snapshotDir = process.env.CATALOGUE_SNAPSHOT_DIR ?? path.join(process.cwd(), '..', 'builds', 'snapshot');

function readJSON<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(snapshotDir, file), 'utf8')) as T;
}

let catalogue: CatalogueFile | undefined;

/** The header menu and page list of this build. */
export function getCatalogue(): CatalogueFile {
  catalogue ??= readJSON<CatalogueFile>('catalogue.json');
  return catalogue;
}

/** The payload a page is rendered from; the build ships the same file beside it. */
function payload<T>(pagePath: string): T {
  return readJSON<T>(path.join('pages', pagePath, '_payload.json'));
}

export const getHome = (): Home => payload<Home>('/');

export function getRangePage(urlText: string): RangePage {
  return payload<RangePage>(`/outlet/r/${urlText}/`);
}

export function getCategoryPage(slug: string, id: string): CategoryPage {
  return payload<CategoryPage>(`/outlet/section/${slug}/${id}/`);
}

/** A product page's payload, by its path (/{slug}/). */
export function getProductPage(pagePath: string): ProductPage {
  return payload<ProductPage>(pagePath);
}

/** Whether a path is a product page of this build. */
export function isProductPath(pagePath: string): boolean {
  productPathSet ??= new Set(getCatalogue().product_paths);
  return productPathSet.has(pagePath);
}

let productPathSet: Set<string> | undefined;

let onlyPages: Set<string> | null | undefined;

/** Whether this build renders the catalogue page at a path. A partial build
 * (scripts/build.mjs, docs/build-and-release.md "Partial builds") names the pages whose data
 * changed in the JSON list CATALOGUE_PAGES_FILE, and the release carries every other page
 * over from the current release; without it every page is rendered. */
export function renders(pagePath: string): boolean {
  if (onlyPages === undefined) {
    const file = process.env.CATALOGUE_PAGES_FILE;
    onlyPages = file ? new Set(JSON.parse(readFileSync(file, 'utf8')) as string[]) : null;
  }
  return onlyPages === null || onlyPages.has(pagePath);
}

/** The route parameters of every range page this build renders. */
export function rangeParams(): { urlText: string }[] {
  return getCatalogue()
    .menu.ranges.filter((r) => renders(r.path))
    .map((r) => ({ urlText: r.url_text }));
}

/** The route parameters of every category page this build renders. */
export function categoryParams(): { urltext: string; pageID: string }[] {
  return getCatalogue().menu.groups.flatMap((g) => g.categories.filter((c) => renders(c.path)).map((c) => ({ urltext: c.slug, pageID: String(c.id) })));
}
