'use client';
import { useEffect, useState } from 'react';
import Link from '@/components/app/link';
import type { Order } from '@/lib/checkout';
import { formatPence, formatUkDate } from '@/lib/format';
import { deliveryWindowText, lineStateText, listForwardOrders, type ForwardOrder } from '@/lib/forward-orders';
import { formatLondonDay } from '@/lib/london-dates';
import { OrderAddresses } from './order-addresses';
import { OrderTotals } from './order-totals';

const orderHref = (id: string) => `/account/orders/?id=${encodeURIComponent(id)}`;

/** A forward order on the order page: not invoiced until its goods are allocated (so the
 * page waits for no invoice), each line with its delivery date and its state from the
 * buyer's book (loaded beside the order; the lines show without it while it loads or if
 * it fails), the release orders made from it and the link to its companion, today's
 * order of the same checkout. */
export function ForwardOrderView({ order: o }: { order: Order }) {
  const [book, setBook] = useState<ForwardOrder | null>(null);
  useEffect(() => {
    let live = true;
    listForwardOrders()
      .then((list) => live && setBook(list.find((f) => f.id === o.id) ?? null))
      .catch(() => live && setBook(null));
    return () => {
      live = false;
    };
  }, [o.id]);
  const stateOf = (sku: string) => book?.lines.find((l) => l.sku === sku);
  return (
    <article className="invoice forward-order-view" aria-labelledby="forward-title">
      <h2 id="forward-title">Forward order — not invoiced until the goods are allocated</h2>
      <p>
        Order <strong className="order-number">{o.id}</strong>, placed {formatUkDate(o.placed_at)}
        {book && book.delivery_from && <>, for delivery {deliveryWindowText(book)}</>}.
      </p>
      {o.companion && (
        <p>
          Placed in the same checkout as order <Link href={orderHref(o.companion)}>{o.companion}</Link> (the goods in stock).
        </p>
      )}
      {o.no_backorders && <p>No backorders: packs a delivery cannot fill are cancelled, not kept open.</p>}
      <table className="basket-table order-lines">
        <caption className="sr-only">Forward order lines</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Unit ex VAT</th>
            <th scope="col">Units</th>
            <th scope="col">Delivery from</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {o.lines.map((l) => {
            const s = stateOf(l.sku);
            return (
              <tr key={l.sku} data-sku={l.sku}>
                <th scope="row">
                  {l.name} <span className="muted">({l.sku})</span>
                </th>
                <td data-label="Unit ex VAT">{formatPence(l.unit_price)}</td>
                <td data-label="Units">{l.quantity}</td>
                <td data-label="Delivery from">{l.delivery_from ? formatLondonDay(l.delivery_from) : ''}</td>
                <td data-label="State">{s ? lineStateText(s) : 'Ordered'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {book && book.releases.length > 0 && (
        <p>
          Delivered as{' '}
          {book.releases.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <Link href={orderHref(id)}>{id}</Link>
            </span>
          ))}{' '}
          (each invoiced when its goods were allocated).
        </p>
      )}
      <OrderTotals order={o} />
      <OrderAddresses order={o} Heading="h3" withPoRef />
      <p className="muted">Reduce or cancel a line until its order-by date from your dashboard’s Forward orders.</p>
    </article>
  );
}
