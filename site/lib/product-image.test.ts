import { describe, expect, it } from 'vitest';
import { NO_PICTURE_ALT, NO_PICTURE_SRC, hasPicture, productImage } from './product-image';

describe('product images', () => {
  it('takes an empty or missing path for no picture', () => {
    expect(hasPicture('/media/products/gc101-00001-s.svg')).toBe(true);
    for (const none of ['', '   ', undefined, null]) expect(hasPicture(none)).toBe(false);
  });

  it('draws the picture with its own alt, or the placeholder saying "No picture"', () => {
    expect(productImage('/media/a.svg', 'Robin card')).toEqual({ src: '/media/a.svg', alt: 'Robin card', placeholder: false });
    expect(productImage('', '')).toEqual({ src: NO_PICTURE_SRC, alt: NO_PICTURE_ALT, placeholder: true });
    expect(productImage(undefined, 'Robin card')).toEqual({ src: NO_PICTURE_SRC, alt: 'No picture', placeholder: true });
  });

  it('is a square inline SVG that scales to any size and fetches nothing', () => {
    expect(NO_PICTURE_SRC.startsWith('data:image/svg+xml,')).toBe(true);
    const svg = decodeURIComponent(NO_PICTURE_SRC.slice('data:image/svg+xml,'.length));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*viewBox="0 0 160 160"/);
    expect(svg).toMatch(/<\/svg>$/);
    // Only the SVG namespace is a URL: no external image, font or script.
    expect(svg.replace('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:|href|<script|<image/);
    // Characters a data: URL must not hold raw are escaped.
    expect(NO_PICTURE_SRC).not.toMatch(/[<>"#\s]/);
  });
});
