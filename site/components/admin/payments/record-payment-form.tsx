'use client';
import { useState, type FormEvent } from 'react';
import { adminRecordPayment, type Ledger } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { checkPaymentForm, newPaymentForm, openInvoices, type PaymentForm } from '@/lib/payment-forms';
import { FormOutcome } from '../form-outcome';
import { useAdminSubmit } from '../use-admin-submit';
import { AllocateChoice, HandAllocation } from './hand-allocation';
import { MethodField, MoneyFields } from './payment-fields';

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
      <MethodField id="payment-method" value={form.method} change={(method) => set({ method })} error={problems.method} />
      <MoneyFields
        id="payment"
        form={form}
        set={set}
        problems={problems}
        dateLabel="Date received"
        referenceHint="The bank's reference, or the cheque number."
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
