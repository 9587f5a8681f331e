import type { Order } from '@/lib/checkout';
import { formatPence } from '@/lib/format';

/** An order's totals as the server gives them: goods, coupon, delivery, ex VAT, VAT, inc VAT. */
export function OrderTotals({ order: o }: { order: Order }) {
  return (
    <dl className="totals">
      <dt>Goods ex VAT</dt>
      <dd>{formatPence(o.goods_ex_vat)}</dd>
      {o.coupon_discount > 0 && (
        <>
          <dt>Coupon {o.coupon_id}</dt>
          <dd>−{formatPence(o.coupon_discount)}</dd>
        </>
      )}
      <dt>Delivery ex VAT</dt>
      <dd>{formatPence(o.delivery_charge)}</dd>
      <dt>Total ex VAT</dt>
      <dd>{formatPence(o.net_ex_vat)}</dd>
      <dt>VAT</dt>
      <dd>{formatPence(o.vat)}</dd>
      <dt>Total inc VAT</dt>
      <dd data-total="gross">{formatPence(o.total_inc_vat)}</dd>
    </dl>
  );
}
