import type { CreditNote, Order } from '@/lib/checkout';
import { formatPence, formatUkDate } from '@/lib/format';
import { InvoiceDownload } from './invoice-download';
import { VatSummary } from './vat-summary';

/** A VAT credit note against the order's invoice, as the server issued it: its number and
 * date, the invoice it credits, the reason, each line credited, the amounts per VAT rate
 * and the totals credited (and what it leaves on the account as credit, where the invoice
 * owed less than it credits), with its PDF to download. */
export function CreditNoteView({ order, note: c }: { order: Order; note: CreditNote }) {
  const titleId = `credit-note-${c.number}`;
  return (
    <article className="invoice credit-note" aria-labelledby={titleId}>
      <h2 id={titleId}>VAT credit note {c.number}</h2>
      <dl className="summary-list">
        <dt>Credit note date</dt>
        <dd>{formatUkDate(c.issued_at)}</dd>
        <dt>Credits invoice</dt>
        <dd>
          {c.invoice} of {formatUkDate(c.invoice_issued_at)}
        </dd>
        <dt>Reason</dt>
        <dd>{c.reason}</dd>
      </dl>
      <table className="basket-table order-lines">
        <caption className="sr-only">Lines credited</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Unit ex VAT</th>
            <th scope="col">Units credited</th>
            <th scope="col">VAT rate</th>
            <th scope="col">Credited ex VAT</th>
            <th scope="col">VAT</th>
          </tr>
        </thead>
        <tbody>
          {c.lines.map((l) => (
            <tr key={l.line}>
              <th scope="row">
                {l.name} <span className="muted">({l.sku})</span>
              </th>
              <td data-label="Unit ex VAT">{formatPence(l.unit_price)}</td>
              <td data-label="Units credited">{l.units}</td>
              <td data-label="VAT rate">{l.vat_rate}%</td>
              <td data-label="Credited ex VAT">{formatPence(l.net_ex_vat)}</td>
              <td data-label="VAT">{formatPence(l.vat)}</td>
            </tr>
          ))}
          {c.delivery_ex_vat > 0 || c.delivery_vat > 0 ? (
            <tr>
              <th scope="row">Delivery</th>
              <td data-label="Unit ex VAT" />
              <td data-label="Units credited" />
              <td data-label="VAT rate" />
              <td data-label="Credited ex VAT">{formatPence(c.delivery_ex_vat)}</td>
              <td data-label="VAT">{formatPence(c.delivery_vat)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <div className="invoice-sums">
        <VatSummary rates={c.vat_rates} caption="VAT credited" />
        <dl className="summary-list">
          <dt>Total credited ex VAT</dt>
          <dd>{formatPence(c.net_ex_vat)}</dd>
          <dt>VAT credited</dt>
          <dd>{formatPence(c.vat)}</dd>
          <dt>Total credited inc VAT</dt>
          <dd>
            <strong>{formatPence(c.total_inc_vat)}</strong>
          </dd>
          {c.on_account_amount > 0 && (
            <>
              <dt>Left on your account as credit</dt>
              <dd>{formatPence(c.on_account_amount)}</dd>
            </>
          )}
        </dl>
      </div>
      <div className="no-print">
        <InvoiceDownload order={order} note={c} />
      </div>
    </article>
  );
}
