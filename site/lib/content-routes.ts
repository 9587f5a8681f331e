import 'server-only';
import { blogPosts, contentPage, contentPages, type ContentPage } from './content';

/** The data a catch-all page is rendered from: a help page or blog post, or the blog
 * index. The page and its _payload.json both come from here. */
export type CatchAllPage =
  | { kind: 'content'; page: ContentPage }
  | { kind: 'blog-index'; path: '/blog/'; posts: Omit<ContentPage, 'html'>[] };

/** Every catch-all path's segments, for generateStaticParams. */
export function catchAllParams(): { slug: string[] }[] {
  return [{ slug: ['blog'] }, ...contentPages().map((p) => ({ slug: [p.section, p.slug] }))];
}

/** The page at these segments; undefined for a path no page has. */
export function catchAllPage(slug: string[]): CatchAllPage | undefined {
  const path = `/${slug.join('/')}/`;
  if (path === '/blog/') {
    return { kind: 'blog-index', path, posts: blogPosts().map(({ html: _html, ...rest }) => rest) };
  }
  const page = contentPage(path);
  return page && { kind: 'content', page };
}
