import Link from '@/components/app/link';
import { formatPence, formatUkDate } from '@/lib/format';
import { deliveryWindowText, lineStateText, orderByText, type ForwardOrder } from '@/lib/forward-orders';
import { ForwardLineChange } from './forward-line-change';

const orderHref = (id: string) => `/account/orders/?id=${encodeURIComponent(id)}`;

/** One forward order in the buyer's book: its number, delivery window, each line's state
 * (with Reduce and Cancel line while it can change) and its release orders. changed
 * takes the order as a change left it. */
export function ForwardOrderCard({ order: o, changed }: { order: ForwardOrder; changed: (o: ForwardOrder) => void }) {
  return (
    <section className="forward-order" aria-labelledby={`fwd-${o.id}`}>
      <h3 id={`fwd-${o.id}`}>
        <Link href={orderHref(o.id)}>{o.id}</Link> <span className="status status-forward">Forward</span>
      </h3>
      <p className="muted">
        Placed {formatUkDate(o.placed_at)} · delivery {deliveryWindowText(o)}
        {o.no_backorders && ' · no backorders: packs a delivery cannot fill are cancelled'}
      </p>
      <table className="forward-lines">
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Unit price</th>
            <th scope="col">State</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {o.lines.map((l) => (
            <tr key={l.sku}>
              <td>
                {l.name}{' '}
                <span className="muted">
                  ({l.sku}, packs of {l.pack_size})
                </span>
              </td>
              <td>{formatPence(l.unit_price)}</td>
              <td className={`forward-state forward-${l.state}`}>{lineStateText(l)}</td>
              <td>{l.can_change ? <ForwardLineChange orderId={o.id} line={l} changed={changed} /> : <span className="muted">{orderByText(l)}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {o.releases.length > 0 && (
        <p>
          Delivered as{' '}
          {o.releases.map((id, i) => (
            <span key={id}>
              {i > 0 && ', '}
              <Link href={orderHref(id)}>{id}</Link>
            </span>
          ))}
        </p>
      )}
    </section>
  );
}
