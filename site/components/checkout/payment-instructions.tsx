import { bankTransfer } from '@/lib/bank-transfer';
import type { Order } from '@/lib/checkout';
import { formatPence } from '@/lib/format';

/** How to pay: the invoice's own payment terms once it is issued; until then the same
 * terms from the order's payment method (by card, pro-forma or on account). */
export function PaymentInstructions({ order: o }: { order: Order }) {
  if (o.invoice) return <p className="payment-instructions">{o.invoice.payment_terms}</p>;
  if (o.billing?.payment_method === 'card') {
    return (
      <p className="payment-instructions">
        <strong>By card:</strong> please pay {formatPence(o.total_inc_vat)} on Stripe&apos;s secure page. We dispatch as soon as it is paid.
      </p>
    );
  }
  if (o.billing?.payment_method === 'proforma') {
    return (
      <p className="payment-instructions">
        <strong>Pro-forma:</strong> please pay {formatPence(o.total_inc_vat)} by bank transfer
        {bankTransfer && ` to ${bankTransfer.accountName}, sort code ${bankTransfer.sortCode}, account ${bankTransfer.accountNumber}`}, quoting {o.id}. We
        dispatch as soon as it reaches us.
      </p>
    );
  }
  return (
    <p className="payment-instructions">
      <strong>On account:</strong> payment is due within 30 days of the invoice date.
    </p>
  );
}
