'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
import { NotFoundView } from '@/components/errors/not-found-view';
import { clearHydrationFailure, hydrationFailedAt, subscribeHydration, watchHydration } from '@/lib/hydration';
import { validateRoute } from '@/lib/route-validation';

// Before React hydrates anything (lib/hydration.ts says why).
if (typeof window !== 'undefined') watchHydration(window);

/** SPEC.md section 8: a route whose parameters fail validation, or a page whose hydration
 * fails, shows the 404 'Page Not Found: {fullPath}' in place of the page. Both are known
 * only in the browser (the static HTML of a shell such as /checkout/complete/{orderId}/
 * serves every id), so the page is drawn first and replaced once the check fails. */
export function PageGuard({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [failed, setFailed] = useState<'invalid' | 'hydration' | null>(null);
  useEffect(() => {
    const path = window.location.pathname;
    const at = hydrationFailedAt();
    if (at !== null && at !== path) clearHydrationFailure(); // the failure belonged to the page before
    // A page that is itself a 404 (the edge's 404 page for a path with bad parameters, or
    // the error boundary's) already says so; drawing the guard's over it would record it twice.
    const pageIs404 = document.querySelector('[data-not-found=""]') !== null;
    const check = () => setFailed(pageIs404 ? null : validateRoute(path) === 'invalid' ? 'invalid' : hydrationFailedAt() === path ? 'hydration' : null);
    check();
    return subscribeHydration(check);
  }, [pathname]);
  return failed ? <NotFoundView reason={failed} byGuard /> : children;
}
