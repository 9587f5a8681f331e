import type { VatRateTotal } from '@/lib/checkout';
import { formatPence } from '@/lib/format';

/** An invoice's (or a credit note's) totals per VAT rate, as the server gives them
 * (highest rate first). */
export function VatSummary({ rates, caption = 'VAT summary' }: { rates: VatRateTotal[]; caption?: string }) {
  return (
    <table className="basket-table vat-summary">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">VAT rate</th>
          <th scope="col">Net ex VAT</th>
          <th scope="col">VAT</th>
        </tr>
      </thead>
      <tbody>
        {rates.map((r) => (
          <tr key={r.rate}>
            <th scope="row" data-label="VAT rate">
              {r.rate}%
            </th>
            <td data-label="Net ex VAT">{formatPence(r.net_ex_vat)}</td>
            <td data-label="VAT">{formatPence(r.vat)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
