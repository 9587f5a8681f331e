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
});
