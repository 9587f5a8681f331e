import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ProductCard, ProductDetail as Detail } from '@/lib/types';
import { NO_PICTURE_SRC } from '@/lib/product-image';
import { ProductImage } from './product-image';

/** The attributes of every <img> in html, in order. */
function images(html: string): Record<string, string>[] {
  return [...html.matchAll(/<img ([^>]*?)\/?>/g)].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!.replace(/&amp;/g, '&')])),
  );
}

describe('ProductImage', () => {
  it("draws a product's picture as given", () => {
    const [img] = images(renderToStaticMarkup(<ProductImage src="/media/a-s.svg" alt="" width={160} height={160} loading="lazy" />));
    expect(img).toEqual({ src: '/media/a-s.svg', alt: '', width: '160', height: '160', loading: 'lazy' });
  });

  it('draws the placeholder at the same size for a product without a picture, saying "No picture"', () => {
    for (const src of ['', undefined]) {
      const [img] = images(renderToStaticMarkup(<ProductImage className="product-image" src={src} alt="Robin card" width={640} height={640} />));
      expect(img).toMatchObject({
        src: NO_PICTURE_SRC,
        alt: 'No picture',
        width: '640',
        height: '640',
        class: 'product-image no-picture',
        'data-placeholder': 'true',
      });
    }
  });
});

describe('the pages that draw product images', () => {
  const card: ProductCard = {
    sku: 'GC101-00001',
    path: '/robin-gc101-00001/',
    slug: 'robin',
    name: 'Robin card',
    pack_size: 6,
    unit_price: 65,
    vat_rate: 20,
    rrp: null,
    margin: null,
    in_stock: true,
    small_img: '',
    forward: null,
  };

  it("the product grid keeps each card's 160 × 160 image, placeholder or picture", async () => {
    const { ProductGrid } = await import('./product-grid');
    const html = renderToStaticMarkup(<ProductGrid products={[card, { ...card, sku: 'GC101-00002', small_img: '/media/b-s.svg' }]} label="Cards" />);
    const [none, pic] = images(html);
    expect(none).toMatchObject({ src: NO_PICTURE_SRC, alt: 'No picture', width: '160', height: '160' });
    expect(pic).toMatchObject({ src: '/media/b-s.svg', alt: '', width: '160', height: '160' });
  });

  it('a grid at the top of a page loads its first row at once with high priority, every other image lazily', async () => {
    const { GRID_FIRST_ROW, ProductGrid } = await import('./product-grid');
    const cards = Array.from({ length: 10 }, (_, i) => ({ ...card, sku: `GC101-0000${i}`, small_img: `/media/${i}-s.svg` }));
    const top = images(renderToStaticMarkup(<ProductGrid products={cards} label="Cards" firstRowEager />));
    expect(GRID_FIRST_ROW).toBe(6);
    expect(top.map((img) => [img.loading, img.fetchPriority ?? null])).toEqual([
      ...Array.from({ length: 6 }, () => ['eager', 'high']),
      ...Array.from({ length: 4 }, () => ['lazy', null]),
    ]);
    for (const img of top) expect(img).toMatchObject({ width: '160', height: '160' });
    // Anywhere else (related products, search, page 2 of a category) every image is lazy.
    const below = images(renderToStaticMarkup(<ProductGrid products={cards} label="Cards" />));
    expect(below.every((img) => img.loading === 'lazy' && !img.fetchPriority)).toBe(true);
  });

  it('the product page draws the 640 × 640 placeholder for a product without a picture', async () => {
    const { ProductDetail } = await import('./product-detail');
    const detail: Detail = { ...card, large_img: '', description: 'A card.', stock_state: 'in-stock', breaks: [] };
    const [img] = images(renderToStaticMarkup(<ProductDetail product={detail} />));
    expect(img).toMatchObject({ src: NO_PICTURE_SRC, alt: 'No picture', width: '640', height: '640', class: 'product-image no-picture' });
  });
});

describe('every product image', () => {
  it('is drawn through ProductImage: no component or page draws a bare <img>', () => {
    const site = path.resolve(import.meta.dirname, '..', '..');
    const bare: string[] = [];
    for (const dir of ['app', 'components']) {
      for (const entry of readdirSync(path.join(site, dir), { recursive: true, withFileTypes: true })) {
        const file = path.join(entry.parentPath, entry.name);
        if (
          !entry.isFile() ||
          !/\.tsx$/.test(entry.name) ||
          /\.test\.tsx$/.test(entry.name) ||
          file === path.join(site, 'components', 'catalogue', 'product-image.tsx')
        )
          continue;
        if (/<img[\s>]/.test(readFileSync(file, 'utf8'))) bare.push(path.relative(site, file));
      }
    }
    expect(bare).toEqual([]);
  });
});
