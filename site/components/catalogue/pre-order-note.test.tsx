import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProductDetail as Detail } from '@/lib/types';
import { ProductDetail } from './product-detail';
import { ProductGrid } from './product-grid';

const forward = { delivery_from: '2027-09-01', order_by: '2027-06-30' };
const product: Detail = {
  sku: 'XM-00001',
  path: '/robin-xm-00001/',
  slug: 'robin-xm-00001',
  name: 'Robin card',
  pack_size: 6,
  unit_price: 95,
  vat_rate: 20,
  in_stock: false,
  small_img: '',
  forward,
  large_img: '',
  description: 'A robin.',
  stock_state: 'out-of-stock',
  rrp: null,
  margin: null,
  breaks: [],
};

// A page is built (and hydrates) with the pre-order open, as it was when built: the
// browser's own London day takes over after (lib/forward.test.ts has the date rule).
describe('a forward product on a static page', () => {
  it('says when to pre-order instead of out of stock on its page', () => {
    const html = renderToStaticMarkup(<ProductDetail product={product} />);
    expect(html).toContain('Pre-order for delivery from 1 September 2027');
    expect(html).toContain('Order by 30 June 2027');
    expect(html).not.toContain('Out of stock');
  });
  it('says it on its grid card too', () => {
    const html = renderToStaticMarkup(<ProductGrid products={[product]} label="Christmas" />);
    expect(html).toContain('Pre-order for delivery from 1 September 2027');
    expect(html).not.toContain('Out of stock');
  });
  it('leaves an ordinary product as it was', () => {
    const html = renderToStaticMarkup(<ProductDetail product={{ ...product, forward: null }} />);
    expect(html).not.toContain('Pre-order');
    expect(html).toContain('Out of stock');
  });
});
