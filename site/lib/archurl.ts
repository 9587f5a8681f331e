/** The cookie that remembers the last visited page (SPEC.md section 2). */
export const ARCH_URL_COOKIE = 'archUrl';

/** Pages that never become the remembered page: signing in or out must not send the
 * buyer back to a sign-in page. */
export const ARCH_URL_EXCLUDED = ['/account/login/', '/account/register/', '/account/password_reset/', '/account/logout/'];

const withSlash = (p: string) => (p.endsWith('/') ? p : `${p}/`);

/** Whether visiting this path updates archUrl. */
export function remembersPage(pathname: string): boolean {
  return !ARCH_URL_EXCLUDED.includes(withSlash(pathname));
}

/** The Set-Cookie-style string for document.cookie that remembers path + query, or
 * null for an excluded page. Lax so the cookie survives arriving from an email link. */
export function archUrlCookie(pathname: string, search = '', maxAgeDays = 30): string | null {
  if (!remembersPage(pathname)) return null;
  return setArchUrl(pathname + search, maxAgeDays);
}

/** Secure behind HTTPS, so the cookie never travels in clear; local http keeps it plain. */
const secureFlag = () => (typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '');

const setArchUrl = (page: string, maxAgeDays = 30) =>
  `${ARCH_URL_COOKIE}=${encodeURIComponent(page)}; Path=/; Max-Age=${maxAgeDays * 86400}; SameSite=Lax${secureFlag()}`;

/** The origin a remembered page is resolved against when the caller gives none: only the
 * path is kept, so any fixed origin serves to tell a same-origin path from another site. */
const SOME_ORIGIN = 'https://shop.invalid';

/** raw if it is a path on this site, else null. A browser reads "/\host" and
 * "/<TAB>/host" (it drops tabs and newlines) as "//host", another site: so raw must start
 * with one slash, hold no backslash or control character, and resolve against origin to
 * that same origin. */
export function sitePath(raw: string, origin = SOME_ORIGIN): string | null {
  if (!raw.startsWith('/') || /[\\\x00-\x1f\x7f]/.test(raw)) return null;
  try {
    return new URL(raw, origin).origin === new URL(origin).origin ? raw : null;
  } catch {
    return null;
  }
}

/** Reads the remembered page from a cookie header; only a path on this site (origin, the
 * page's) is trusted, so the cookie cannot send a buyer to another site. */
export function readArchUrl(cookieHeader: string, origin?: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === ARCH_URL_COOKIE) {
      let path: string;
      try {
        path = decodeURIComponent(v.join('='));
      } catch {
        return null;
      }
      return sitePath(path, origin);
    }
  }
  return null;
}

/** The 404 views mark themselves with this attribute; archUrl never remembers a 404. */
export const NOT_FOUND_ATTR = 'data-not-found';

/** Where the cookie is read and written (document in the browser). */
export interface CookieJar {
  cookie: string;
}

/** The last write, so a page found to be a 404 after it was remembered can be forgotten. */
let lastWrite: { page: string; before: string | null } | null = null;

/** Remembers the page being shown (path and query) in archUrl: after every navigation,
 * including one that changes only the query (?page=2), except on an excluded page or a
 * 404 (notFound), which a sign-in must never land on. */
export function rememberPage(jar: CookieJar, pathname: string, search: string, notFound: boolean): void {
  const cookie = archUrlCookie(pathname, search);
  if (!cookie || notFound) return;
  const page = pathname + search;
  const before = readArchUrl(jar.cookie);
  if (before !== page) lastWrite = { page, before };
  jar.cookie = cookie;
}

/** Called by a 404 that appears in place of a page already remembered (route validation
 * or hydration failed after the page was drawn): archUrl goes back to the page before. */
export function forgetPage(jar: CookieJar, pathname: string, search: string): void {
  if (!lastWrite || lastWrite.page !== pathname + search || readArchUrl(jar.cookie) !== lastWrite.page) return;
  const { before } = lastWrite;
  lastWrite = null;
  jar.cookie = before ? setArchUrl(before) : `${ARCH_URL_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}
