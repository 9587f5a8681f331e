import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ListLine } from '@/lib/lists';
import { ListLineRow } from './list-line-row';

const product = {
  sku: 'XM-1',
  name: 'Robin cards',
  path: '/robin-cards/',
  small_img: '',
  forward: null,
  pack_size: 6,
  list_price: 45,
  base_price: 45,
  unit_price: 41,
  discount_percent: 10,
  pack_price: 246,
  availability: { status: 'low' as const, packs_left: 3 },
  line_limit: 120,
  in_basket: 0,
  margin: null,
  breaks: [],
};
const noop = () => {};
const render = (line: ListLine, packs = '2', boxError = '') =>
  renderToStaticMarkup(
    <table>
      <tbody>
        <ListLineRow line={line} packs={packs} boxError={boxError} onType={noop} onUpdate={noop} onSetPacks={noop} onRemove={noop} />
      </tbody>
    </table>,
  );

describe('a saved list line', () => {
  it("shows the product, its pack size, availability and the buyer's pack price, and the packs in a labelled box", () => {
    const html = render({ sku: 'XM-1', quantity: 12, product, problem: null });
    expect(html).toContain('href="/robin-cards/"');
    expect(html).toContain('SKU XM-1 · packs of 6');
    expect(html).toContain('Only 3 packs left');
    expect(html).toContain('£2.46');
    expect(html).toMatch(/<label for="list-qty-XM-1"[^>]*>Packs of Robin cards<\/label><input id="list-qty-XM-1"[^>]*value="2"/);
    expect(html).toContain('12 units');
    expect(html).not.toContain('aria-invalid');
  });

  it('says why a line cannot be bought, ties it to the box, and offers the whole packs it could be', () => {
    const html = render({
      sku: 'XM-1',
      quantity: 10,
      product,
      problem: { code: 'packs', message: '10 is not a whole number of packs of 6.', nearest: [6, 12] },
    });
    expect(html).toContain(
      '<span id="list-problem-XM-1" class="basket-stock basket-short list-problem" data-code="packs">10 is not a whole number of packs of 6.</span>',
    );
    expect(html).toMatch(/aria-invalid="true" aria-describedby="list-problem-XM-1"/);
    expect(html).toContain('aria-label="Change Robin cards to 1 pack">Change to 1 pack</button>');
    expect(html).toContain('aria-label="Change Robin cards to 2 packs">Change to 2 packs</button>');
  });

  it('points the box at its own problem while there is one', () => {
    const html = render({ sku: 'XM-1', quantity: 12, product, problem: null }, '1.5', '1.5 is not a whole number of packs.');
    expect(html).toMatch(/aria-invalid="true" aria-describedby="list-qty-XM-1-error"/);
    expect(html).toContain('<p id="list-qty-XM-1-error" class="field-error" role="alert">1.5 is not a whole number of packs.</p>');
  });

  it('a SKU no product has: its problem and Remove, no packs box', () => {
    const html = render({ sku: 'GONE-1', quantity: 5, product: null, problem: { code: 'unknown', message: 'There is no product with SKU GONE-1.' } });
    expect(html).toContain('There is no product with SKU GONE-1.');
    expect(html).not.toContain('<input');
    expect(html).toContain('aria-label="Remove GONE-1"');
  });
});
