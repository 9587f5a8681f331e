import { PricedLineUnitPrice } from '@/components/basket/line-unit-price';
import type { OrderLine } from '@/lib/checkout';
import { formatPence } from '@/lib/format';

/** An order's lines as charged: unit price ex VAT (with the list price and discount where
 * one applies, and the quantity break and price group that priced it), units, VAT rate, line ex VAT and its VAT. Once a credit note has credited
 * units of a line (taken off before dispatch, or returned), each line also shows the units
 * ordered, credited and to be sent (supplied, once dispatched). */
export function OrderLinesTable({ lines, dispatched = false }: { lines: OrderLine[]; dispatched?: boolean }) {
  const credited = lines.some((l) => l.credited > 0);
  const sendWord = dispatched ? 'Supplied' : 'To be sent';
  return (
    <table className="basket-table order-lines">
      <caption className="sr-only">Order lines</caption>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Unit ex VAT</th>
          <th scope="col">{credited ? 'Ordered' : 'Units'}</th>
          {credited && (
            <>
              <th scope="col">Credited</th>
              <th scope="col">{sendWord}</th>
            </>
          )}
          <th scope="col">VAT rate</th>
          <th scope="col">Line ex VAT</th>
          <th scope="col">VAT</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.sku} data-sku={l.sku}>
            <th scope="row">
              {l.name} <span className="muted">({l.sku})</span>
            </th>
            <td data-label="Unit ex VAT">
              <PricedLineUnitPrice line={l} />
            </td>
            <td data-label={credited ? 'Ordered' : 'Units'}>{l.quantity}</td>
            {credited && (
              <>
                <td data-label="Credited">{l.credited}</td>
                <td data-label={sendWord}>{l.to_send}</td>
              </>
            )}
            <td data-label="VAT rate">{l.vat_rate}%</td>
            <td data-label="Line ex VAT">{formatPence(l.line_amount)}</td>
            <td data-label="VAT">{formatPence(l.vat)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
