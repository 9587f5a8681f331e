import { LineUnitPrice } from '@/components/basket/line-unit-price';
import type { OrderLine } from '@/lib/checkout';
import { formatPence } from '@/lib/format';

/** An order's lines as charged: unit price ex VAT (with the list price and discount where
 * one applies), units, VAT rate, line ex VAT and its VAT. */
export function OrderLinesTable({ lines }: { lines: OrderLine[] }) {
  return (
    <table className="basket-table order-lines">
      <caption className="sr-only">Order lines</caption>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Unit ex VAT</th>
          <th scope="col">Units</th>
          <th scope="col">VAT rate</th>
          <th scope="col">Line ex VAT</th>
          <th scope="col">VAT</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.sku}>
            <th scope="row">
              {l.name} <span className="muted">({l.sku})</span>
            </th>
            <td data-label="Unit ex VAT">
              <LineUnitPrice unit={l.unit_price} list={l.list_price} discountPercent={l.discount_percent} />
            </td>
            <td data-label="Units">{l.quantity}</td>
            <td data-label="VAT rate">{l.vat_rate}%</td>
            <td data-label="Line ex VAT">{formatPence(l.line_amount)}</td>
            <td data-label="VAT">{formatPence(l.vat)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
