'use client';
import { useState, type FormEvent } from 'react';
import { adminAllocate, type Ledger, type LedgerEntry } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { checkAllocateForm, openInvoices, type HandAmounts } from '@/lib/payment-forms';
import { useAdminSubmit } from '../use-admin-submit';
import { AllocateChoice, HandAllocation } from './hand-allocation';
import { EntryForm } from './payment-fields';

type Choice = 'oldest' | 'by_hand';
const ALLOCATE: [Choice, string][] = [
  ['oldest', 'Oldest invoices first'],
  ['by_hand', 'By hand'],
];

/** Allocate what a payment or a credit note's credit on account has left: oldest first or
 * by hand. Its heading takes the focus when it opens. */
export function AllocateForm({
  uid,
  entry,
  ledger,
  done,
  close,
  reload,
}: {
  uid: string;
  entry: LedgerEntry;
  ledger: Ledger;
  done: (l: Ledger) => void;
  close: () => void;
  reload: () => void;
}) {
  const [allocate, setAllocate] = useState<Choice>('oldest');
  const [hand, setHand] = useState<HandAmounts>({});
  const { busy, problems, setProblems, outcome, submit, reset } = useAdminSubmit();

  function save(e: FormEvent) {
    e.preventDefault();
    const r = checkAllocateForm({ allocate, hand });
    if (!r.ok) {
      setProblems(r.problems);
      return;
    }
    void submit(async () => {
      const out = await adminAllocate(uid, entry.reference, r.value);
      done(out.ledger);
      setHand({});
      return `${entry.reference} has ${formatPence(out.payment.unallocated)} left to allocate.`;
    }, 'The allocation could not be saved.');
  }

  return (
    <EntryForm
      id="allocate-form"
      title="Allocate"
      entry={entry}
      save={save}
      outcome={outcome}
      reset={reset}
      reload={reload}
      close={close}
      nothingLeft="Nothing is left to allocate."
    >
      <AllocateChoice id="allocate" value={allocate} choices={ALLOCATE} change={setAllocate} />
      {allocate === 'by_hand' && (
        <HandAllocation id="allocate-line" invoices={openInvoices(ledger.entries)} amounts={hand} change={setHand} problems={problems} />
      )}
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? 'Allocating…' : 'Allocate'}
      </button>{' '}
    </EntryForm>
  );
}
