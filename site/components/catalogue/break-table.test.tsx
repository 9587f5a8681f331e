import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { BasketLineRow } from '@/components/basket/basket-line-row';
import { OrderLinesTable } from '@/components/checkout/order-lines-table';
import type { BasketLine } from '@/lib/basket';
import type { OrderLine } from '@/lib/checkout';
import type { ProductDetail as Detail } from '@/lib/types';
import { ProductDetail } from './product-detail';

// What the static HTML says of a product's quantity prices and margin (signed out: the
// server's snapshot of the account is nobody), and how a basket or order line says what
// priced it.

const detail: Detail = {
  sku: 'BL603-00001',
  path: '/age-1-age-balloon-bl603-00001/',
  slug: 'age-1-age-balloon',
  name: 'Age 1 Age Balloon',
  pack_size: 6,
  unit_price: 95,
  vat_rate: 20,
  in_stock: true,
  small_img: '',
  forward: null,
  large_img: '',
  description: 'A balloon.',
  stock_state: 'in-stock',
  rrp: 199,
  margin: { rrp: 199, tenths: 427 },
  breaks: [
    { from_packs: 1, to_packs: 5, unit_price: 95, pack_price: 570, margin: { rrp: 199, tenths: 427 } },
    { from_packs: 6, to_packs: 11, unit_price: 90, pack_price: 540, margin: { rrp: 199, tenths: 457 } },
    { from_packs: 12, to_packs: null, unit_price: 85, pack_price: 510, margin: { rrp: 199, tenths: 487 } },
  ],
};

describe('a product page, signed out', () => {
  const html = renderToStaticMarkup(<ProductDetail product={detail} />);

  it('gives the RRP and the margin at list price', () => {
    expect(html).toContain('<p class="product-margin" data-tenths="427">RRP £1.99 · margin at list price 42.7%</p>');
  });

  it('gives the public quantity prices as a table with a caption', () => {
    expect(html).toContain('<caption>Quantity prices</caption>');
    expect(html).toContain('<th scope="row">1–5 packs</th><td>£0.95 each</td><td>£5.70 a pack</td><td>margin 42.7%</td>');
    expect(html).toContain('<th scope="row">12+ packs</th><td>£0.85 each</td><td>£5.10 a pack</td><td>margin 48.7%</td>');
    expect(html).not.toContain('aria-current');
  });

  it('draws no table and no margin for a product without breaks or RRP', () => {
    const bare = renderToStaticMarkup(<ProductDetail product={{ ...detail, rrp: null, margin: null, breaks: [] }} />);
    expect(bare).not.toContain('<table');
    expect(bare).not.toContain('product-margin');
  });
});

const line: BasketLine = {
  id: 'BL603-00001',
  sku: 'BL603-00001',
  name: 'Age 1 Age Balloon',
  path: '/age-1-age-balloon-bl603-00001/',
  small_img: '',
  pack_size: 6,
  quantity: 24,
  list_price: 95,
  unit_price: 90,
  discount_percent: 0,
  line_amount: 2160,
  vat_rate: 20,
  vat: 432,
  in_stock: true,
  availability: { status: 'in_stock' },
  short: false,
  base_price: 95,
  break_from: 4,
  break_price: 90,
  price_group: 'Independents',
  delivery_from: '',
  order_by: '',
  nudge: { add_packs: 2, unit_price: 85, saving: 180 },
  margin: { rrp: 199, tenths: 457 },
};

describe('a basket line', () => {
  const row = (l: BasketLine) =>
    renderToStaticMarkup(
      <table>
        <tbody>
          <BasketLineRow line={l} packs="4" onType={() => {}} onUpdate={() => {}} onRemove={() => {}} onAddPacks={() => {}} />
        </tbody>
      </table>,
    );

  it('says the break and the group that priced it beside its unit price', () => {
    expect(row(line)).toContain('<span class="muted price-note">4+ packs price · Independents</span>');
  });

  it('says how many packs reach the next break, with a button adding them', () => {
    const html = row(line);
    expect(html).toContain('<span id="nudge-BL603-00001">Add 2 packs to pay £0.85 each: save £1.80</span>');
    expect(html).toMatch(/<button type="button" class="button" aria-describedby="nudge-BL603-00001">Add 2 packs<\/button>/);
  });

  it('has no note and no nudge at its list price', () => {
    const html = row({ ...line, break_from: null, price_group: null, nudge: null, unit_price: 95 });
    expect(html).not.toContain('price-note');
    expect(html).not.toContain('basket-nudge');
  });
});

it("an order's lines keep the break and group that priced them", () => {
  const ordered: OrderLine = {
    sku: line.sku,
    name: line.name,
    pack_size: 6,
    quantity: 24,
    list_price: 95,
    discount_percent: 0,
    unit_price: 90,
    line_amount: 2160,
    vat_rate: 20,
    vat: 432,
    credited: 0,
    to_send: 24,
    base_price: 95,
    break_from: 4,
    break_price: 90,
    price_group: 'Independents',
    delivery_from: '',
    order_by: '',
  };
  expect(renderToStaticMarkup(<OrderLinesTable lines={[ordered]} />)).toContain('4+ packs price · Independents');
});
