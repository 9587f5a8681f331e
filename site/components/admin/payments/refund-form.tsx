'use client';
import { useState, type FormEvent } from 'react';
import { adminRefund, type Ledger, type LedgerEntry } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { checkRefundForm, newRefundForm, type RefundForm as Form } from '@/lib/payment-forms';
import { useAdminSubmit } from '../use-admin-submit';
import { EntryForm, MethodField, MoneyFields } from './payment-fields';

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
    <EntryForm
      id="refund-form"
      title="Refund"
      entry={entry}
      save={save}
      outcome={outcome}
      reset={reset}
      reload={reload}
      close={close}
      nothingLeft="Nothing is left to refund."
    >
      <MethodField id="refund-method" value={form.method} change={(method) => set({ method })} error={problems.method}>
        {canReverse && <option value="reversal">Reversal (recorded in error, or the cheque bounced)</option>}
      </MethodField>
      <MoneyFields
        id="refund"
        form={form}
        set={set}
        problems={problems}
        dateLabel="Date paid back"
        amountHint={form.method === 'reversal' ? 'A reversal takes back the whole payment.' : `At most what it has left: ${formatPence(entry.unallocated)}.`}
        referenceHint="The transfer's reference, or the cheque number."
        referenceError={problems.reference ?? problems.source}
      />
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? 'Recording…' : form.method === 'reversal' ? 'Reverse payment' : 'Record refund'}
      </button>{' '}
    </EntryForm>
  );
}
