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
  const value = encodeURIComponent(pathname + search);
  return `${ARCH_URL_COOKIE}=${value}; Path=/; Max-Age=${maxAgeDays * 86400}; SameSite=Lax`;
}

/** Reads the remembered page from a cookie header; only a site path is trusted, so
 * the cookie cannot send a buyer to another site. */
export function readArchUrl(cookieHeader: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === ARCH_URL_COOKIE) {
      let path: string;
      try {
        path = decodeURIComponent(v.join('='));
      } catch {
        return null;
      }
      return path.startsWith('/') && !path.startsWith('//') ? path : null;
    }
  }
  return null;
}
