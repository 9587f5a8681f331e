'use client';
import { useEffect, useState } from 'react';
import { forgetPage } from '@/lib/archurl';
import { isCrawler } from '@/lib/crawler';
import { reportError } from '@/lib/report';
import { validateRoute } from '@/lib/route-validation';
import { ErrorLinks } from './error-links';

interface Seen {
  message: string;
  crawler: boolean;
}

/** The 404 page: 'We Were Unable to Find that Page' with the non-fatal message
 * 'Page not found: {path}', or 'Page Not Found: {fullPath}' when the path is a known
 * route whose parameters fail validation or (reason) the page in its place failed
 * validation or hydration (components/app/page-guard.tsx, byGuard). Crawlers get no error page.
 * It never becomes archUrl: the cookie goes back to the page before. */
export function NotFoundView({ reason, byGuard = false }: { reason?: 'invalid' | 'hydration'; byGuard?: boolean }) {
  const [seen, setSeen] = useState<Seen | null>(null);
  useEffect(() => {
    const path = window.location.pathname;
    const full = path + window.location.search + window.location.hash;
    const message = reason || validateRoute(path) === 'invalid' ? `Page Not Found: ${full}` : `Page not found: ${path}`;
    const crawler = isCrawler(navigator.userAgent);
    setSeen({ message, crawler });
    forgetPage(document, path, window.location.search);
    // The report names the path only: a query string or hash may hold what a buyer typed.
    if (!crawler)
      reportError(message.replace(full, path), {
        kind: reason === 'hydration' ? 'hydration' : 'other',
        statusCode: 404,
        path,
        fatal: false,
        ...(reason && { context: { reason } }),
      });
  }, [reason]);
  if (seen?.crawler) return null;
  return (
    <section className="error-page" aria-labelledby="error-title" data-not-found={byGuard ? 'guard' : ''}>
      <h1 id="error-title">We Were Unable to Find that Page</h1>
      <p className="error-message" role="status">
        {seen?.message ?? ''}
      </p>
      <ErrorLinks />
    </section>
  );
}
