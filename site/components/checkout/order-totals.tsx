import type { Order } from '@/lib/checkout';
import { formatPence } from '@/lib/format';

/** The figures every totals list shows (pence), as the server gives them. */
export interface TotalsFigures {
  goods_ex_vat: number;
  coupon_discount: number;
  net_ex_vat: number;
  vat: number;
  total_inc_vat: number;
}

/** The totals of a basket, a checkout quote or an order: goods, the coupon when it takes
 * something off, delivery when it is known (a charge, or 'free' where the quote says so),
 * ex VAT, VAT and inc VAT. The figures are the server's; the browser only formats them.
 * Each figure carries data-total (goods, coupon, delivery, net, vat, gross), which the
 * end-to-end tests read. */
export function Totals({ figures: f, couponLabel = 'Coupon', delivery }: { figures: TotalsFigures; couponLabel?: string; delivery?: number | 'free' }) {
  return (
    <dl className="totals">
      <dt>Goods ex VAT</dt>
      <dd data-total="goods">{formatPence(f.goods_ex_vat)}</dd>
      {f.coupon_discount > 0 && (
        <>
          <dt>{couponLabel}</dt>
          <dd data-total="coupon">−{formatPence(f.coupon_discount)}</dd>
        </>
      )}
      {delivery !== undefined && (
        <>
          <dt>Delivery ex VAT</dt>
          <dd data-total="delivery">{delivery === 'free' ? 'Free' : formatPence(delivery)}</dd>
        </>
      )}
      <dt>Total ex VAT</dt>
      <dd data-total="net">{formatPence(f.net_ex_vat)}</dd>
      <dt>VAT</dt>
      <dd data-total="vat">{formatPence(f.vat)}</dd>
      <dt>Total inc VAT</dt>
      <dd data-total="gross">{formatPence(f.total_inc_vat)}</dd>
    </dl>
  );
}

/** A placed order's totals: its coupon named, its delivery charge as charged. */
export function OrderTotals({ order }: { order: Order }) {
  return <Totals figures={order} couponLabel={`Coupon ${order.coupon_id}`} delivery={order.delivery_charge} />;
}
