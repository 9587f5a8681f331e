import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
vi.stubGlobal('process', { ...process, cwd: () => new URL('..', import.meta.url).pathname });

const { contentPages, fillPlaceholders, blogPosts } = await import('./content');

describe('content pages', () => {
  it('renders every help page and blog post with a title, description and body', () => {
    const pages = contentPages();
    const paths = pages.map((p) => p.path);
    for (const p of ['about-us', 'faq', 'contact-us', 'privacy', 'cookies', 'terms-and-conditions']) {
      expect(paths).toContain(`/help/${p}/`);
    }
    expect(blogPosts().length).toBeGreaterThanOrEqual(3);
    for (const page of pages) {
      expect(page.title.length).toBeGreaterThan(0);
      expect(page.description.length).toBeGreaterThan(20);
      expect(page.html).toMatch(/<p>|<h2>|<ul>/);
      expect(page.html).not.toContain('{{');
      // Every internal link in the content ends in a slash.
      for (const [, href] of page.html.matchAll(/href="(\/[^"]*)"/g)) expect(href).toMatch(/\/(\?|#|$)/);
    }
  });

  it('quotes the shop constants from shop.json', () => {
    const faq = contentPages().find((p) => p.path === '/help/faq/')!;
    expect(faq.html).toContain('£100.00');
    expect(faq.html).toContain('£250.00');
    expect(faq.html).toContain('£7.95');
  });

  it('names the company from shop.json on the contact page, as the law asks of a business website', async () => {
    const { readFileSync } = await import('node:fs');
    const { business } = JSON.parse(readFileSync(new URL('../../functions/config/shop.json', import.meta.url), 'utf8')) as {
      business: Record<'tradingName' | 'legalName' | 'registeredIn' | 'registeredAddress' | 'companyNumber' | 'vatNumber', string>;
    };
    const contact = contentPages().find((p) => p.path === '/help/contact-us/')!;
    for (const k of ['tradingName', 'legalName', 'registeredIn', 'registeredAddress', 'companyNumber', 'vatNumber'] as const)
      expect(contact.html).toContain(business[k]);
    const about = contentPages().find((p) => p.path === '/help/about-us/')!;
    expect(about.description.startsWith(`${business.tradingName} supplies`)).toBe(true);
  });

  it('fails the build on an unknown placeholder', () => {
    expect(() => fillPlaceholders('{{nope}}', {}, 'x.md')).toThrow('x.md: unknown placeholder {{nope}}');
  });

  it('lists the blog newest first', () => {
    const dates = blogPosts().map((p) => p.date ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
  });
});
