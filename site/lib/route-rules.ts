/** One route rule of a build (builds/meta/{buildId}.json). */
export interface Redirect {
  source: string;
  target: string;
  status: number;
}

/** A build's route-rules manifest. */
export interface Manifest {
  id: string;
  timestamp: number;
  redirects: Redirect[];
}

/** Whether a target leaves the site (and so needs a full page load). */
export const isExternal = (target: string) => /^https?:\/\//i.test(target);

/** A path as the rules match it: with its trailing slash, unless it names a file. */
export function normalisePath(pathname: string): string {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return pathname.endsWith('/') || last.includes('.') ? pathname : `${pathname}/`;
}

/** Where the rules send a path and query, or null when no rule matches. A site-path
 * target keeps the query, as the edge does. */
export function applyRules(manifest: Manifest | null, pathname: string, search = ''): { href: string; external: boolean } | null {
  if (!manifest) return null;
  const path = normalisePath(pathname);
  const rule = manifest.redirects.find((r) => normalisePath(r.source) === path);
  if (!rule) return null;
  const external = isExternal(rule.target);
  const keepQuery = !external && search && !rule.target.includes('?');
  return { href: keepQuery ? rule.target + search : rule.target, external };
}

/** Gives an internal link its trailing slash (before any query or hash); external
 * links, files and already-slashed paths are left alone. */
export function withTrailingSlash(href: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  const cut = href.search(/[?#]/);
  const path = cut === -1 ? href : href.slice(0, cut);
  const rest = cut === -1 ? '' : href.slice(cut);
  return normalisePath(path) + rest;
}
