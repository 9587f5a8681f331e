'use client';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { adminRefund, type Ledger, type LedgerEntry } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { checkRefundForm, newRefundForm, type RefundForm as Form } from '@/lib/payment-forms';
import { FormOutcome } from '../form-outcome';
import { useAdminSubmit } from '../use-admin-submit';

/** Refund what a payment or a credit note's credit on account has left (at most that: the
 * server says so in a sentence), or reverse a payment with nothing allocated (a cheque
 * that bounced, a payment recorded in error) whole. Its heading takes the focus. */
export function RefundForm({
  uid,
  entry,
  done,
  close,
  reload,
}: {
  uid: string;
  entry: LedgerEntry;
  done: (l: Ledger) => void;
  close: () => void;
  reload: () => void;
}) {
  const [form, setForm] = useState<Form>(() => newRefundForm());
  const { busy, problems, setProblems, outcome, submit, reset } = useAdminSubmit();
  const set = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [entry.reference]);
  // A reversal takes back a payment received whole; the server refuses one with anything
  // allocated, in a sentence. Credit on account is never reversed.
  const canReverse = entry.kind === 'payment';

  function save(e: FormEvent) {
    e.preventDefault();
    const r = checkRefundForm(form, entry.reference);
    if (!r.ok) {
      setProblems(r.problems);
      return;
    }
    void submit(async () => {
      const out = await adminRefund(uid, r.value);
      done(out.ledger);
      setForm(newRefundForm());
      const what = out.refund.method === 'reversal' ? 'reversed' : 'refunded';
      return `${formatPence(out.refund.amount)} of ${entry.reference} is ${what} (${out.refund.id}): ${formatPence(out.payment.unallocated)} left.`;
    }, 'The refund could not be recorded.');
  }

  return (
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby="refund-form">
      <h2 id="refund-form" ref={heading} tabIndex={-1}>
        Refund {entry.reference}: {formatPence(entry.unallocated)} left
      </h2>
      <FormOutcome
        outcome={outcome}
        reload={() => {
          reset();
          reload();
        }}
      />
      {entry.unallocated > 0 ? (
        <>
          <div className="field">
            <label htmlFor="refund-method">Method</label>
            <select id="refund-method" value={form.method} onChange={(e) => set({ method: e.target.value as Form['method'] })}>
              <option value="bank_transfer">Bank transfer</option>
              <option value="cheque">Cheque</option>
              {canReverse && <option value="reversal">Reversal (recorded in error, or the cheque bounced)</option>}
            </select>
            {problems.method && <p className="field-error">{problems.method}</p>}
          </div>
          <Field
            id="refund-date"
            label="Date paid back"
            type="date"
            value={form.date}
            onChange={(e) => set({ date: e.target.value })}
            required
            error={problems.date}
          />
          <Field
            id="refund-amount"
            label="Amount in pounds"
            hint={form.method === 'reversal' ? 'A reversal takes back the whole payment.' : `At most what it has left: ${formatPence(entry.unallocated)}.`}
            inputMode="decimal"
            value={form.amount}
            onChange={(e) => set({ amount: e.target.value })}
            required
            error={problems.amount}
          />
          <Field
            id="refund-reference"
            label="Reference"
            hint="The transfer's reference, or the cheque number."
            value={form.reference}
            onChange={(e) => set({ reference: e.target.value })}
            maxLength={60}
            required
            error={problems.reference ?? problems.source}
          />
          <button type="submit" className="button" aria-disabled={busy}>
            {busy ? 'Recording…' : form.method === 'reversal' ? 'Reverse payment' : 'Record refund'}
          </button>{' '}
        </>
      ) : (
        <p>Nothing is left to refund.</p>
      )}
      <button type="button" className="link-button" onClick={close}>
        Close
      </button>
    </form>
  );
}
