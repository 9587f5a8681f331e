'use client';
import { useEffect, useState } from 'react';
import { isCrawler } from '@/lib/crawler';
import { reportError } from '@/lib/report';
import { ErrorLinks } from './error-links';

/** The page shown when rendering fails: 'Hmm, we had an error' with the status code.
 * The error is recorded as fatal. Crawlers get no error page. */
export function ErrorView({ error, reset }: { error: Error & { statusCode?: number; digest?: string }; reset?: () => void }) {
  const statusCode = error.statusCode ?? 500;
  const [crawler, setCrawler] = useState(false);
  useEffect(() => {
    setCrawler(isCrawler(navigator.userAgent));
    reportError(error, { fatal: true, statusCode, path: window.location.pathname });
  }, [error, statusCode]);
  if (crawler) return null;
  return (
    <section className="error-page" aria-labelledby="error-title" {...(statusCode === 404 && { 'data-not-found': '' })}>
      <h1 id="error-title">{statusCode === 404 ? 'We Were Unable to Find that Page' : 'Hmm, we had an error'}</h1>
      <p className="error-message">
        Something unexpected went wrong (error code {statusCode}). Please try again, or let us know if it keeps happening.
      </p>
      {reset && (
        <p>
          <button type="button" className="button" onClick={reset}>
            Try again
          </button>
        </p>
      )}
      <ErrorLinks />
    </section>
  );
}
