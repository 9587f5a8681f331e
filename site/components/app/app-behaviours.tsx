'use client';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef } from 'react';
import { ensureCsrfToken } from '@/lib/api';
import { firstHydrationCommitted } from './first-hydration';
import { BUILD_POLL_MS, BuildWatcher } from '@/lib/build-watch';
import { reloadAfterChunkError } from '@/lib/chunk-reload';
import { isHydrationError } from '@/lib/hydration';
import { startPrefetch } from '@/lib/prefetch';
import { reportError } from '@/lib/report';
import { applyRules, type Manifest } from '@/lib/route-rules';

declare global {
  interface Window {
    /** Tests shorten the build poll through this. */
    __SHOP_BUILD_POLL_MS?: number;
  }
}

/** The shop's own address a click follows: a plain left click, not handled yet, on a link
 * the tab itself would open (no download, no other target) to this origin, other than a
 * jump within the page; null for any other click (the browser does what it does). */
function followedLink(e: MouseEvent): URL | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || !a.href || a.hasAttribute('download') || (a.target && a.target !== '_self')) return null;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin) return null; // the browser leaves with a full load
  if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return null;
  return url;
}

/** The app-wide behaviours of SPEC.md sections 2, 4 and 7 that need a browser:
 * filling the page's CSRF token, watching for a new build and doing a full page load on the next
 * navigation, applying the build's route rules to client navigation, reloading once
 * on a failed chunk load, and prefetching linked pages' payloads. Renders nothing. */
export function AppBehaviours({ codeVersion }: { codeVersion: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const watcher = useMemo(() => new BuildWatcher(), []);
  const manifest = useRef<Manifest | null>(null);

  // The first hydration has committed: components mounted from now on render in full.
  useEffect(() => firstHydrationCommitted(), []);

  // The page's CSRF token, into its meta tag before the first API call asks for it (every
  // call through lib/api.ts carries it; a call that starts first waits for this request).
  useEffect(() => {
    ensureCsrfToken().catch((err: unknown) => reportError(err, { context: { where: 'csrf token' } }));
  }, []);

  // Ask builds/latest.json at once (the tab's release: the page does not name it), then
  // while the tab is visible, and at once when it becomes visible. The first answer's
  // route rules apply to client navigation (a failed fetch is only logged), and its id
  // goes on <html data-release> for whoever looks.
  useEffect(() => {
    let rulesFor: string | null = null;
    const loadRules = () => {
      const id = watcher.currentId();
      if (!id || rulesFor === id) return;
      rulesFor = id;
      document.documentElement.dataset.release = id;
      fetch(`/builds/meta/${encodeURIComponent(id)}.json`)
        .then((r) => (r.ok ? (r.json() as Promise<Manifest>) : Promise.reject(new Error(`route rules manifest answered ${r.status}`))))
        .then((m) => {
          manifest.current = m;
        })
        .catch((err: unknown) => reportError(err, { context: { where: 'route rules manifest' } }));
    };
    const every = window.__SHOP_BUILD_POLL_MS ?? BUILD_POLL_MS;
    const poll = () => {
      if (document.visibilityState === 'visible' && !watcher.newBuild()) void watcher.check().then(loadRules);
    };
    void watcher.check().then(loadRules);
    const timer = window.setInterval(poll, every);
    document.addEventListener('visibilitychange', poll);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', poll);
    };
  }, [watcher]);

  // Link clicks: route rules first, then a full page load once a new build is out.
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      const url = followedLink(e);
      if (!url) return;
      const ruled = applyRules(manifest.current, url.pathname, url.search);
      const fullLoad = watcher.newBuild();
      if (!ruled && !fullLoad) return; // an ordinary client navigation
      e.preventDefault();
      e.stopPropagation();
      const target = ruled?.href ?? url.href;
      if (ruled?.external || fullLoad) window.location.assign(target);
      else router.push(target);
    };
    const onPop = () => {
      if (watcher.newBuild()) window.location.reload();
    };
    // Plain links (the header menu's and the cards' names are <a>, not next/link, so they
    // hydrate nothing) navigate in the app as next/link's do: a click on a page of the shop
    // (a same-origin path ending in /) that nothing else handled goes through the router.
    // next/link's own handler, and the rules above, run first and prevent the default.
    const onPlainClick = (e: MouseEvent) => {
      const url = followedLink(e);
      if (!url || !url.pathname.endsWith('/')) return;
      e.preventDefault();
      router.push(url.pathname + url.search + url.hash);
    };
    window.addEventListener('click', onClick, true);
    document.addEventListener('click', onPlainClick);
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('click', onClick, true);
      document.removeEventListener('click', onPlainClick);
      window.removeEventListener('popstate', onPop);
    };
  }, [router, watcher]);

  // A failed code-chunk load reloads the page, at most once per 10 s per path. Any other
  // uncaught error or unhandled rejection is reported as unhandled; a failed hydration is
  // the page guard's (lib/hydration.ts), and an image that failed to load is no error event.
  useEffect(() => {
    const onError = (e: Event) => {
      if (!(e instanceof ErrorEvent)) return;
      const reason: unknown = e.error ?? e.message;
      if (reloadAfterChunkError(reason) !== 'other' || isHydrationError(reason)) return;
      if (!e.error && e.message === 'Script error.') return; // another origin's script: nothing to say
      reportError(reason, { kind: 'unhandled' });
    };
    const onRejection = (e: PromiseRejectionEvent) => {
      if (reloadAfterChunkError(e.reason) !== 'other') return;
      if (e.reason instanceof DOMException && e.reason.name === 'AbortError') return; // a call the page itself cancelled
      reportError(e.reason, { kind: 'unhandled' });
    };
    window.addEventListener('error', onError, true);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError, true);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, []);

  // Prefetch links' payloads on hover and focus, and those in view once the load has
  // settled (lib/prefetch.ts); again after each client navigation.
  useEffect(() => startPrefetch(codeVersion), [pathname, codeVersion]);

  return null;
}
