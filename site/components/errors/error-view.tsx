'use client';
import { useEffect, useState } from 'react';
import { isCrawler } from '@/lib/crawler';
import { isHydrationError } from '@/lib/hydration';
import { reportError } from '@/lib/report';
import { ErrorLinks } from './error-links';
import { NotFoundView } from './not-found-view';

type Props = { error: Error & { statusCode?: number; digest?: string }; reset?: () => void };

/** The page shown when rendering fails: 'Hmm, we had an error' with the status code.
 * The error is recorded as fatal. A failed hydration is the 404 'Page Not Found:
 * {fullPath}' instead (SPEC.md section 8). Crawlers get no error page. */
export function ErrorView(props: Props) {
  return isHydrationError(props.error) ? <NotFoundView reason="hydration" /> : <RenderError {...props} />;
}

function RenderError({ error, reset }: Props) {
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
      <p className="error-message">Something unexpected went wrong (error code {statusCode}). Please try again, or let us know if it keeps happening.</p>
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
