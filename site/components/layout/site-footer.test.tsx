import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';

vi.mock('server-only', () => ({}));
const { SiteFooter } = await import('./site-footer');

// The shop's identity is functions/config/shop.json's, not a literal of the footer.
const { business } = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', 'functions', 'config', 'shop.json'), 'utf8')) as {
  business: { tradingName: string; legalName: string; registeredIn: string; registeredAddress: string; companyNumber: string; vatNumber: string };
};
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/<!-- -->/g, '')
    .replace(/\s+/g, ' ');

describe('SiteFooter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('dates its copyright the year the site is built, in the trading name', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-04T10:00:00Z'));
    expect(text(renderToStaticMarkup(<SiteFooter />))).toContain(`© 2031 ${business.tradingName}.`);
  });

  it('shows the company details the law asks of a business website, and the VAT number', () => {
    const footer = text(renderToStaticMarkup(<SiteFooter year={2031} />).replace(/<!-- -->/g, ''));
    expect(footer).toContain(
      `${business.tradingName} is a trading name of ${business.legalName}, registered in ${business.registeredIn}, company number ${business.companyNumber}.`,
    );
    expect(footer).toContain(`Registered office: ${business.registeredAddress}.`);
    expect(footer).toContain(`VAT registration number ${business.vatNumber}.`);
  });
});
