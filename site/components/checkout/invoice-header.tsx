import type { Invoice, Order } from '@/lib/checkout';
import { formatUkDate } from '@/lib/format';

/** The top of a VAT invoice: who supplies (the shop in law, with its registration and VAT
 * numbers) and the invoice's own facts: number, date, tax point, order and the buyer's PO. */
export function InvoiceHeader({ order, invoice }: { order: Order; invoice: Invoice }) {
  const s = invoice.supplier;
  const issued = formatUkDate(invoice.issued_at);
  return (
    <div className="invoice-head">
      <section className="invoice-supplier" aria-labelledby="invoice-supplier">
        <h3 id="invoice-supplier" className="sr-only">
          Supplier
        </h3>
        <p>
          <strong>{s.legal_name}</strong>
          {s.trading_name !== s.legal_name && (
            <>
              <br />
              Trading as {s.trading_name}
            </>
          )}
          <br />
          {s.registered_address}
          <br />
          Registered in {s.registered_in}, company number {s.company_number}
          <br />
          VAT registration number <span className="supplier-vat-number">{s.vat_number}</span>
        </p>
      </section>
      <dl className="summary-list invoice-facts">
        <dt>Invoice number</dt>
        <dd className="invoice-number">{invoice.number}</dd>
        <dt>Invoice date</dt>
        <dd>{issued}</dd>
        <dt>Tax point</dt>
        <dd>{issued}</dd>
        <dt>Order number</dt>
        <dd className="order-number">{order.id}</dd>
        {order.billing?.po_ref && (
          <>
            <dt>Your PO reference</dt>
            <dd>{order.billing.po_ref}</dd>
          </>
        )}
      </dl>
    </div>
  );
}
