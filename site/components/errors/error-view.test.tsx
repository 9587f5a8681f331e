import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ErrorView } from './error-view';

describe('ErrorView', () => {
  it('shows the generic error with its status code and the two links', () => {
    const html = renderToStaticMarkup(<ErrorView error={Object.assign(new Error('x'), { statusCode: 503 })} />);
    expect(html).toContain('Hmm, we had an error');
    expect(html).toContain('error code 503');
    expect(html).toContain('href="/"');
    expect(html).toContain('href="/help/contact-us/"');
  });

  it('uses 500 when the error has no status, and the 404 title for a 404', () => {
    expect(renderToStaticMarkup(<ErrorView error={new Error('x')} />)).toContain('error code 500');
    expect(renderToStaticMarkup(<ErrorView error={Object.assign(new Error('x'), { statusCode: 404 })} />)).toContain('We Were Unable to Find that Page');
  });

  it('a failed hydration that reaches the error boundary is the 404 page, not the generic error', () => {
    const html = renderToStaticMarkup(<ErrorView error={new Error('Minified React error #418; visit https://react.dev/errors/418?args[]=HTML')} />);
    expect(html).toContain('We Were Unable to Find that Page');
    expect(html).not.toContain('error code');
    expect(html).toContain('data-not-found');
  });
});
