/** The in-view prefetch waits this long after the load event (and then for an idle
 * moment), so it never competes with the page itself. */
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

/** Calls fn once the page's load has settled: PREFETCH_DELAY_MS after the load event
 * (at once counted from now when it has already fired, as after a client navigation),
 * then at the browser's next idle moment. Answers a cancel. */
export function afterLoadSettled(fn: () => void): () => void {
  let timer: number | undefined;
  let idle: number | undefined;
  const wait = () => {
    timer = window.setTimeout(() => {
      if ('requestIdleCallback' in window) idle = window.requestIdleCallback(fn, { timeout: 2000 });
      else fn();
    }, PREFETCH_DELAY_MS);
  };
  if (document.readyState === 'complete') wait();
  else window.addEventListener('load', wait, { once: true });
  return () => {
    window.removeEventListener('load', wait);
    window.clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}

/** The shop's link prefetch (issue 21): another page's payload is fetched, at low priority
 * and once per page view, when the pointer rests on it or it takes the focus, and, after the
 * load has settled (afterLoadSettled), when it is in view. Nothing is fetched during load.
 * Answers a stop. */
export function startPrefetch(version: string): () => void {
  const connection = (navigator as Navigator & { connection?: ConnectionInfo }).connection;
  if (!prefetchAllowed(connection)) return () => undefined;
  const done = new Set<string>();
  const warm = (a: Element | null | undefined) => {
    if (!(a instanceof HTMLAnchorElement) || !a.href) return;
    const target = new URL(a.href);
    if (target.origin !== window.location.origin || target.pathname === window.location.pathname) return;
    const url = payloadURL(target.pathname, version);
    if (!url || done.has(url)) return;
    done.add(url);
    fetch(url, { priority: 'low' } as RequestInit).catch(() => undefined);
  };
  const onIntent = (e: Event) => warm((e.target as Element | null)?.closest?.('a[href]'));
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);
  let observer: IntersectionObserver | undefined;
  const cancel = afterLoadSettled(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer?.unobserve(entry.target);
        warm(entry.target);
      }
    });
    document.querySelectorAll<HTMLAnchorElement>('main a[href^="/"], header a[href^="/"]').forEach((a) => observer?.observe(a));
  });
  return () => {
    cancel();
    observer?.disconnect();
    document.removeEventListener('pointerover', onIntent);
    document.removeEventListener('focusin', onIntent);
  };
}
