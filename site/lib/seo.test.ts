import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
const { absolute, breadcrumbLd, decimalPrice, organizationLd, pageMetadata, productImageUrl, productLd, siteName } = await import('./seo');
const shop = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'functions', 'config', 'shop.json'), 'utf8')) as {
  business: { tradingName: string };
};

describe('seo', () => {
  it("names the shop by shop.json's trading name", () => {
    expect(siteName).toBe(shop.business.tradingName);
    expect(pageMetadata({ title: 'T', description: 'D', path: '/a/' }).openGraph).toMatchObject({ siteName: shop.business.tradingName });
    expect(organizationLd({ phone: '1', email: 'e' })).toMatchObject({ name: shop.business.tradingName });
  });

  it('prices as schema.org decimals', () => {
    expect(decimalPrice(19)).toBe('0.19');
    expect(decimalPrice(1205)).toBe('12.05');
  });

  it('builds canonical and Open Graph metadata', () => {
    const m = pageMetadata({ title: 'T', description: 'D', path: '/a/' });
    expect(m.alternates?.canonical).toBe('/a/');
    expect(m.openGraph).toMatchObject({ title: 'T', description: 'D', url: '/a/', locale: 'en_GB' });
  });

  it('describes a product and its offer', () => {
    const ld = productLd(
      {
        sku: 'GC101-00001',
        path: '/x-gc101-00001/',
        slug: 'x',
        name: 'X Card',
        pack_size: 6,
        unit_price: 65,
        vat_rate: 20,
        in_stock: true,
        small_img: '/media/s.svg',
        forward: null,
        large_img: '/media/l.svg',
        description: 'A card.',
        stock_state: 'low-stock',
        rrp: null,
        margin: null,
        breaks: [],
      },
      'Female Birthday Cards',
    );
    expect(ld).toMatchObject({
      '@type': 'Product',
      sku: 'GC101-00001',
      offers: { price: '0.65', priceCurrency: 'GBP', availability: 'https://schema.org/LimitedAvailability' },
    });
    expect(JSON.parse(JSON.stringify(ld))).toEqual(ld);
  });

  it('offers a forward product as a pre-order while its pre-order is open at the build', () => {
    const p = {
      sku: 'XM-00001',
      path: '/robin-xm-00001/',
      slug: 'robin-xm-00001',
      name: 'Robin card',
      pack_size: 6,
      unit_price: 95,
      vat_rate: 20,
      in_stock: false,
      small_img: '',
      forward: { delivery_from: '2027-09-01', order_by: '2027-06-30' },
      large_img: '',
      description: 'A robin.',
      stock_state: 'out-of-stock' as const,
      rrp: null,
      margin: null,
      breaks: [],
    };
    expect(productLd(p, 'Christmas', new Date(Date.UTC(2027, 5, 30, 12)))).toMatchObject({
      offers: { availability: 'https://schema.org/PreOrder', availabilityStarts: '2027-09-01' },
    });
    const closed = productLd(p, 'Christmas', new Date(Date.UTC(2027, 6, 1, 12))) as { offers: Record<string, unknown> };
    expect(closed.offers.availability).toBe('https://schema.org/OutOfStock');
    expect(closed.offers).not.toHaveProperty('availabilityStarts');
  });

  it("names a product's picture in JSON-LD and Open Graph, and none for a product without one", () => {
    const product = {
      sku: 'GC101-00002',
      path: '/y-gc101-00002/',
      slug: 'y',
      name: 'Y Card',
      pack_size: 6,
      unit_price: 65,
      vat_rate: 20,
      in_stock: true,
      small_img: '/media/s.svg',
      forward: null,
      large_img: '/media/l.svg',
      description: 'A card.',
      stock_state: 'in-stock' as const,
      rrp: null,
      margin: null,
      breaks: [],
    };
    expect(productLd(product, 'Cards').image).toEqual([absolute('/media/l.svg')]);
    expect(productImageUrl(product)).toBe(absolute('/media/l.svg'));
    expect(pageMetadata({ title: 'T', description: 'D', path: '/y/', image: productImageUrl(product) }).openGraph).toMatchObject({
      images: [{ url: absolute('/media/l.svg') }],
    });

    for (const none of ['', '  ']) {
      const bare = { ...product, small_img: none, large_img: none };
      const ld = productLd(bare, 'Cards');
      expect(ld).not.toHaveProperty('image');
      expect(ld).toMatchObject({ '@type': 'Product', sku: 'GC101-00002', url: absolute('/y-gc101-00002/') });
      expect(productImageUrl(bare)).toBeUndefined();
      expect(pageMetadata({ title: 'T', description: 'D', path: '/y/', image: productImageUrl(bare) }).openGraph).not.toHaveProperty('images');
    }
  });

  it('numbers breadcrumbs from 1', () => {
    const ld = breadcrumbLd([
      { name: 'Home', path: '/' },
      { name: 'Balloons', path: '/outlet/r/wholesale_balloons/' },
    ]);
    expect((ld.itemListElement as { position: number }[]).map((i) => i.position)).toEqual([1, 2]);
  });
});
