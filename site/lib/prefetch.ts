/** Prefetch waits this long after load, so it never competes with the page itself. */
export const PREFETCH_DELAY_MS = 1000;

/** What navigator.connection tells, where the browser has it. */
export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

/** No prefetch on a very slow connection or with Save-Data on. */
export function prefetchAllowed(c: ConnectionInfo | undefined): boolean {
  if (!c) return true;
  return !c.saveData && c.effectiveType !== 'slow-2g' && c.effectiveType !== '2g';
}

const noPayload = /^\/(account|admin|checkout|search|api|builds|media|_next)\//;

/** The payload URL to prefetch for an internal link, or null when the page has none
 * (client-rendered account, back-office, checkout and search pages; files). */
export function payloadURL(pathname: string, version: string): string | null {
  if (!pathname.startsWith('/') || noPayload.test(pathname)) return null;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (last.includes('.')) return null;
  const dir = pathname.endsWith('/') ? pathname : `${pathname}/`;
  return `${dir}_payload.json?${encodeURIComponent(version)}`;
}
