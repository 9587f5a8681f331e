import Link from '@/components/app/link';
import type { AdminReceiptPage } from '@/lib/api-types';

/** What an applied (or applying) delivery released: per forward order its release order
 * and each line's packs allocated, cancelled and still backordered. */
export function ReceiptReleases({ page }: { page: AdminReceiptPage }) {
  if (page.releases.length === 0) return <p>No forward order was waiting: every pack went to stock.</p>;
  return (
    <table className="basket-table admin-table releases">
      <caption className="sr-only">Orders released by delivery {page.id}</caption>
      <thead>
        <tr>
          <th scope="col">Forward order</th>
          <th scope="col">Release order</th>
          <th scope="col">SKU</th>
          <th scope="col">Allocated (packs)</th>
          <th scope="col">Backordered</th>
          <th scope="col">Cancelled</th>
        </tr>
      </thead>
      <tbody>
        {page.releases.flatMap((r) =>
          r.lines.map((l, i) => (
            <tr key={`${r.forward_order_id}-${l.sku}`} data-order={r.forward_order_id}>
              <th scope="row">{i === 0 ? r.forward_order_id : ''}</th>
              <td data-label="Release order">
                {i === 0 &&
                  (r.release_id && r.done ? (
                    <Link href={`/admin/orders/?id=${encodeURIComponent(r.release_id)}`}>{r.release_id}</Link>
                  ) : r.done ? (
                    'None'
                  ) : (
                    'Not yet'
                  ))}
              </td>
              <td data-label="SKU">{l.sku}</td>
              <td data-label="Allocated">{r.done ? l.released : `${l.planned} planned`}</td>
              <td data-label="Backordered">{l.backordered}</td>
              <td data-label="Cancelled">{l.cancelled}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
