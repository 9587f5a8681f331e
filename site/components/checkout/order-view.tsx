import type { Order } from '@/lib/checkout';
import { formatUkDate } from '@/lib/format';
import { InvoiceHeader } from './invoice-header';
import { OrderAddresses } from './order-addresses';
import { OrderLinesTable } from './order-lines-table';
import { OrderTotals } from './order-totals';
import { PaymentInstructions } from './payment-instructions';
import { VatSummary } from './vat-summary';

/** An order as its UK VAT invoice once the server has issued it; until then the order with
 * a line saying the invoice is on its way (invoiceLate: it is taking longer than it should).
 * Prints cleanly on A4. */
export function OrderView({ order: o, invoiceLate = false }: { order: Order; invoiceLate?: boolean }) {
  const invoice = o.invoice;
  if (!invoice) {
    return (
      <article className="invoice">
        <p className="invoice-pending no-print" role="status">
          {invoiceLate
            ? 'Your VAT invoice is taking longer than usual to issue. Reload this page in a minute to see it.'
            : 'Your VAT invoice is being issued: it will be here in a moment.'}
        </p>
        <p>
          Order <strong className="order-number">{o.id}</strong>, placed {formatUkDate(o.placed_at)}
        </p>
        <OrderLinesTable lines={o.lines} />
        <OrderTotals order={o} />
        <OrderAddresses order={o} Heading="h2" withPoRef />
        <PaymentInstructions order={o} />
      </article>
    );
  }
  return (
    <article className="invoice" aria-labelledby="invoice-title">
      <h2 id="invoice-title">VAT invoice</h2>
      <InvoiceHeader order={o} invoice={invoice} />
      <OrderAddresses order={o} Heading="h3" withPoRef={false} />
      <OrderLinesTable lines={o.lines} dispatched={o.status === 'dispatched' || o.status === 'completed'} />
      <div className="invoice-sums">
        <VatSummary rates={invoice.vat_rates} />
        <OrderTotals order={o} />
      </div>
      <PaymentInstructions order={o} />
    </article>
  );
}
