import Link from '@/components/app/link';
import type { Ledger, LedgerEntry } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { formatLondonDay } from '@/lib/london-dates';

const KIND_LABELS: Record<LedgerEntry['kind'], string> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
  payment: 'Payment',
  refund: 'Refund',
};

const METHOD_LABELS: Record<string, string> = { bank_transfer: 'Bank transfer', cheque: 'Cheque', reversal: 'Reversal', card: 'Card' };

/** Where a refund to a card is at Stripe. */
const REFUND_STATUS: Record<string, string> = { pending: 'pending at Stripe', succeeded: 'succeeded', failed: 'failed' };

/** What an entry can still give: a payment's, or a credit note's credit on account. */
export const hasSomethingLeft = (e: LedgerEntry) => (e.kind === 'payment' || e.kind === 'credit_note') && e.unallocated > 0;

/** The ledger's figures now: balance, due, overdue and unallocated. */
export function LedgerFigures({ ledger }: { ledger: Ledger }) {
  return (
    <dl className="summary-list admin-facts ledger-figures">
      <dt>Balance</dt>
      <dd className="ledger-balance">{formatPence(ledger.balance)}</dd>
      <dt>Due</dt>
      <dd className="ledger-due">{formatPence(ledger.due)}</dd>
      <dt>Overdue</dt>
      <dd className={ledger.overdue ? 'ledger-overdue form-error' : 'ledger-overdue'}>{formatPence(ledger.overdue)}</dd>
      <dt>Unallocated</dt>
      <dd className="ledger-unallocated">{formatPence(ledger.unallocated)}</dd>
    </dl>
  );
}

/** An entry's own details: an invoice's state, a payment's method and what it has left
 * (and a card payment's flag, why staff must look at it), a refund's source (and a card
 * refund's status at Stripe, with its failure). */
function EntryDetails({ e }: { e: LedgerEntry }) {
  switch (e.kind) {
    case 'invoice':
      if (e.outstanding === 0) return <>Paid</>;
      return (
        <>
          Owes {formatPence(e.outstanding)}, due {e.due_on ? formatLondonDay(e.due_on) : 'on receipt'}
          {e.past_due && <strong className="ledger-past-due"> · Overdue</strong>}
        </>
      );
    case 'credit_note':
      return e.unallocated > 0 ? <>Credit on account {formatPence(e.unallocated)} left</> : null;
    case 'payment':
      return (
        <>
          {METHOD_LABELS[e.method] ?? e.method}, {e.payment_reference}
          {e.unallocated > 0 && <> · {formatPence(e.unallocated)} unallocated</>}
          {e.flag && <strong className="ledger-flag">Check this payment: {e.flag}</strong>}
        </>
      );
    case 'refund':
      return (
        <>
          {METHOD_LABELS[e.method] ?? e.method} from {e.source}, {e.payment_reference}
          {e.status && (
            <span className={`ledger-refund-status refund-${e.status}`}>
              {' '}
              · {REFUND_STATUS[e.status] ?? e.status}
              {e.status === 'failed' && e.failure ? `: ${e.failure}` : ''}
            </span>
          )}
        </>
      );
  }
}

/** The ledger's entries oldest first with the running balance; Allocate and Refund on an
 * entry that has something left. */
export function LedgerTable({ ledger, act }: { ledger: Ledger; act: (kind: 'allocate' | 'refund', e: LedgerEntry) => void }) {
  if (!ledger.entries.length) return <p>Nothing yet: no invoice, credit note or payment.</p>;
  return (
    <table className="basket-table admin-table ledger-table">
      <caption className="sr-only">Ledger, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Document</th>
          <th scope="col">Details</th>
          <th scope="col">Debit</th>
          <th scope="col">Credit</th>
          <th scope="col">Balance</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {ledger.entries.map((e) => (
          <tr key={`${e.kind}-${e.reference}`} className={e.past_due ? 'ledger-row past-due' : 'ledger-row'} data-reference={e.reference}>
            <td>{formatLondonDay(e.date)}</td>
            <th scope="row">
              {KIND_LABELS[e.kind]} {e.reference}
              {e.order_id && (
                <>
                  {' '}
                  (<Link href={`/admin/orders/?id=${encodeURIComponent(e.order_id)}`}>{e.order_id}</Link>)
                </>
              )}
            </th>
            <td>
              <EntryDetails e={e} />
            </td>
            <td>{e.debit ? formatPence(e.debit) : ''}</td>
            <td>{e.credit ? formatPence(e.credit) : ''}</td>
            <td>{formatPence(e.balance)}</td>
            <td>
              {hasSomethingLeft(e) && (
                <>
                  <button type="button" className="link-button" onClick={() => act('allocate', e)} aria-label={`Allocate ${e.reference}`}>
                    Allocate
                  </button>{' '}
                  <button type="button" className="link-button" onClick={() => act('refund', e)} aria-label={`Refund ${e.reference}`}>
                    Refund
                  </button>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
