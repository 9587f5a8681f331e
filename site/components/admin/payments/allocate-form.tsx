'use client';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminAllocate, type Ledger, type LedgerEntry } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { checkAllocateForm, openInvoices, type HandAmounts } from '@/lib/payment-forms';
import { FormOutcome } from '../form-outcome';
import { useAdminSubmit } from '../use-admin-submit';
import { AllocateChoice, HandAllocation } from './hand-allocation';

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
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [entry.reference]);

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
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby="allocate-form">
      <h2 id="allocate-form" ref={heading} tabIndex={-1}>
        Allocate {entry.reference}: {formatPence(entry.unallocated)} left
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
          <AllocateChoice id="allocate" value={allocate} choices={ALLOCATE} change={setAllocate} />
          {allocate === 'by_hand' && (
            <HandAllocation id="allocate-line" invoices={openInvoices(ledger.entries)} amounts={hand} change={setHand} problems={problems} />
          )}
          <button type="submit" className="button" aria-disabled={busy}>
            {busy ? 'Allocating…' : 'Allocate'}
          </button>{' '}
        </>
      ) : (
        <p>Nothing is left to allocate.</p>
      )}
      <button type="button" className="link-button" onClick={close}>
        Close
      </button>
    </form>
  );
}
