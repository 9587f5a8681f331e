import { LineUnitPrice } from '@/components/basket/line-unit-price';
import { bankTransfer } from '@/lib/bank-transfer';
import type { Order } from '@/lib/checkout';
import { formatPence } from '@/lib/format';

const deliveryNames: Record<string, string> = { standard: 'Standard UK mainland delivery', 'next-day': 'Next working day' };

/** An order as an invoice: lines, totals, addresses and how to pay. Prints cleanly. */
export function OrderView({ order: o }: { order: Order }) {
  const placed = new Date(o.placed_at).toLocaleDateString('en-GB', { dateStyle: 'long' });
  return (
    <article className="invoice">
      <p>
        Order <strong className="order-number">{o.id}</strong>, placed {placed}
      </p>
      <table className="basket-table">
        <caption className="sr-only">Order lines</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Units</th>
            <th scope="col">Unit ex VAT</th>
            <th scope="col">Line ex VAT</th>
            <th scope="col">VAT</th>
          </tr>
        </thead>
        <tbody>
          {o.lines.map((l) => (
            <tr key={l.sku}>
              <td>
                {l.name} <span className="muted">({l.sku})</span>
              </td>
              <td data-label="Units">{l.quantity}</td>
              <td data-label="Unit ex VAT">
                <LineUnitPrice unit={l.unit_price} list={l.list_price} discountPercent={l.discount_percent} />
              </td>
              <td data-label="Line ex VAT">{formatPence(l.line_amount)}</td>
              <td data-label="VAT">{formatPence(l.vat)}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
      <div className="addresses">
        {o.billing && (
          <section>
            <h2>Invoice to</h2>
            <p>
              {o.billing.company}, {o.billing.contact}
              <br />
              {o.billing.address.line1}
              {o.billing.address.line2 && `, ${o.billing.address.line2}`}, {o.billing.address.town} {o.billing.address.postcode}
              {o.billing.vat_number && <><br />VAT {o.billing.vat_number}</>}
              {o.billing.po_ref && <><br />Your PO {o.billing.po_ref}</>}
            </p>
          </section>
        )}
        {o.deliver_to && (
          <section>
            <h2>Deliver to</h2>
            <p>
              {o.deliver_to.line1}
              {o.deliver_to.line2 && `, ${o.deliver_to.line2}`}, {o.deliver_to.town} {o.deliver_to.postcode}
              <br />
              {deliveryNames[o.delivery_option] ?? o.delivery_option}
              {o.delivery_note && (
                <>
                  <br />
                  {/* The note may hold line breaks (LF): shown as the buyer typed them. */}
                  <span style={{ whiteSpace: 'pre-line' }}>Note: {o.delivery_note}</span>
                </>
              )}
            </p>
          </section>
        )}
      </div>
      {o.billing?.payment_method === 'proforma' ? (
        <p className="payment-instructions">
          <strong>Pro-forma:</strong> please pay {formatPence(o.total_inc_vat)} by bank transfer
          {bankTransfer && ` to ${bankTransfer.accountName}, sort code ${bankTransfer.sortCode}, account ${bankTransfer.accountNumber}`}, quoting {o.id}. We dispatch as soon as it reaches us.
        </p>
      ) : (
        <p className="payment-instructions">
          <strong>On account:</strong> we will invoice you on dispatch; payment is due within 30 days.
        </p>
      )}
    </article>
  );
}
