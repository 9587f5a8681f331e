import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { SiteFooter } from './site-footer';

describe('SiteFooter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('dates its copyright the year the site is built', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-04T10:00:00Z'));
    expect(renderToStaticMarkup(<SiteFooter />)).toContain('© 2031 TradeShop Wholesale.');
  });
});
