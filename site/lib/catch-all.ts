import 'server-only';
import { getCatalogue, getProductPage, isProductPath, renders } from './catalogue';
import { blogPosts, contentPage, contentPages, type ContentPage } from './content';
import type { ProductPage } from './types';

/** The data a catch-all page is rendered from: a product, a help page or blog post,
 * or the blog index. The page and its _payload.json both come from here. */
export type CatchAllPage = ProductPage | { kind: 'content'; page: ContentPage } | { kind: 'blog-index'; path: '/blog/'; posts: Omit<ContentPage, 'html'>[] };

/** The segments of every content page (help, blog). */
export function contentParams(): { slug: string[] }[] {
  return [{ slug: ['blog'] }, ...contentPages().map((p) => ({ slug: [p.section, p.slug] }))];
}

/** The segments of every catch-all page this build renders: content pages, always, and
 * products (all of them, or a partial build's changed ones). */
export function catchAllParams(): { slug: string[] }[] {
  const products = getCatalogue()
    .product_paths.filter(renders)
    .map((p) => ({ slug: p.split('/').filter(Boolean) }));
  return [...contentParams(), ...products];
}

/** The page at these segments; undefined for a path no page has. */
export function catchAllPage(slug: string[]): CatchAllPage | undefined {
  const path = `/${slug.join('/')}/`;
  if (path === '/blog/') {
    return { kind: 'blog-index', path, posts: blogPosts().map(({ html: _html, ...rest }) => rest) };
  }
  if (isProductPath(path)) return getProductPage(path);
  const page = contentPage(path);
  return page && { kind: 'content', page };
}
