'use client';
import { useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { adminRecordPayment, type Ledger } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { checkPaymentForm, newPaymentForm, openInvoices, type PaymentForm } from '@/lib/payment-forms';
import { FormOutcome } from '../form-outcome';
import { useAdminSubmit } from '../use-admin-submit';
import { AllocateChoice, HandAllocation } from './hand-allocation';

const ALLOCATE: [PaymentForm['allocate'], string][] = [
  ['oldest', 'Oldest invoices first'],
  ['by_hand', 'By hand'],
  ['none', 'Not yet (keep it on the account)'],
];

/** Record payment: the method, the day it was received (today in London to start), the
 * amount in pounds, its reference and how to allocate it. The ledger after is shown. */
export function RecordPaymentForm({ uid, ledger, recorded, reload }: { uid: string; ledger: Ledger; recorded: (l: Ledger) => void; reload: () => void }) {
  const [form, setForm] = useState<PaymentForm>(() => newPaymentForm());
  const { busy, problems, setProblems, outcome, submit, reset } = useAdminSubmit();
  const set = (change: Partial<PaymentForm>) => setForm((f) => ({ ...f, ...change }));

  function save(e: FormEvent) {
    e.preventDefault();
    const r = checkPaymentForm(form);
    if (!r.ok) {
      setProblems(r.problems);
      return;
    }
    void submit(async () => {
      const out = await adminRecordPayment(uid, r.value);
      recorded(out.ledger);
      setForm(newPaymentForm());
      const p = out.payment;
      return `Payment ${p.id} of ${formatPence(p.amount)} is recorded: ${formatPence(p.allocated)} allocated, ${formatPence(p.unallocated)} left on the account.`;
    }, 'The payment could not be recorded.');
  }

  return (
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby="record-payment">
      <h2 id="record-payment">Record payment</h2>
      <FormOutcome
        outcome={outcome}
        reload={() => {
          reset();
          reload();
        }}
      />
      <div className="field">
        <label htmlFor="payment-method">Method</label>
        <select id="payment-method" value={form.method} onChange={(e) => set({ method: e.target.value as PaymentForm['method'] })}>
          <option value="bank_transfer">Bank transfer</option>
          <option value="cheque">Cheque</option>
        </select>
        {problems.method && <p className="field-error">{problems.method}</p>}
      </div>
      <Field
        id="payment-date"
        label="Date received"
        type="date"
        value={form.date}
        onChange={(e) => set({ date: e.target.value })}
        required
        error={problems.date}
      />
      <Field
        id="payment-amount"
        label="Amount in pounds"
        inputMode="decimal"
        value={form.amount}
        onChange={(e) => set({ amount: e.target.value })}
        required
        error={problems.amount}
      />
      <Field
        id="payment-reference"
        label="Reference"
        hint="The bank's reference, or the cheque number."
        value={form.reference}
        onChange={(e) => set({ reference: e.target.value })}
        maxLength={60}
        required
        error={problems.reference}
      />
      <AllocateChoice id="payment" value={form.allocate} choices={ALLOCATE} change={(allocate) => set({ allocate })} />
      {form.allocate === 'by_hand' && (
        <HandAllocation id="payment-line" invoices={openInvoices(ledger.entries)} amounts={form.hand} change={(hand) => set({ hand })} problems={problems} />
      )}
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? 'Recording…' : 'Record payment'}
      </button>
    </form>
  );
}
