import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ForwardOrder } from '@/lib/forward-orders';
import { ForwardOrderCard } from './forward-order-card';

const line = {
  sku: 'XM001-00001',
  name: 'Robin cards',
  pack_size: 6,
  unit_price: 150,
  ordered_packs: 5,
  allocated_packs: 0,
  backordered_packs: 0,
  cancelled_packs: 0,
  open_packs: 5,
  state: 'ordered',
  delivery_from: '2027-09-01',
  order_by: '2027-06-30',
  can_change: true,
};

const order: ForwardOrder = {
  id: 'TS-100050',
  placed_at: Date.UTC(2027, 2, 1, 10),
  delivery_from: '2027-09-01',
  delivery_to: '2027-10-01',
  no_backorders: false,
  companion: 'TS-100049',
  lines: [
    line,
    { ...line, sku: 'XM001-00002', name: 'Holly cards', state: 'backordered', allocated_packs: 3, backordered_packs: 2, open_packs: 2, can_change: false },
    { ...line, sku: 'XM001-00003', name: 'Advent calendars', state: 'cancelled', cancelled_packs: 5, open_packs: 0, can_change: false },
  ],
  releases: ['TS-100070'],
};

describe('ForwardOrderCard', () => {
  const html = renderToStaticMarkup(<ForwardOrderCard order={order} changed={() => {}} />);

  it('shows the order, its delivery window and a Forward badge', () => {
    expect(html).toContain('TS-100050');
    expect(html).toContain('status-forward');
    expect(html).toContain('delivery from 1 September 2027 to 1 October 2027');
  });

  it("says each line's state in words", () => {
    expect(html).toContain('>Ordered<');
    expect(html).toContain('Allocated 3 of 5 packs, backordered 2 packs');
    expect(html).toContain('>Cancelled<');
  });

  it('offers Reduce and Cancel line only on a line that can change, the order-by date on the others', () => {
    expect(html.match(/>Reduce</g)).toHaveLength(1);
    expect(html.match(/>Cancel line</g)).toHaveLength(1);
    expect(html).toContain('Order by 30 June 2027');
    expect(html).toContain('Pre-orders closed on 30 June 2027');
  });

  it('links its release orders', () => {
    expect(html).toContain('href="/account/orders/?id=TS-100070"');
  });
});
