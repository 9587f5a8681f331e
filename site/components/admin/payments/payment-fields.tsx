'use client';
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Field } from '@/components/account/field';
import type { LedgerEntry } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { FormOutcome } from '../form-outcome';
import type { Outcome } from '../use-admin-submit';

/** The method of money received or paid back: a bank transfer or a cheque, and any more
 * choices children add; its problem beside it. */
export function MethodField<M extends string>({
  id,
  value,
  change,
  error,
  children,
}: {
  id: string;
  value: M;
  change: (m: M) => void;
  error?: string;
  children?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Method</label>
      <select id={id} value={value} onChange={(e) => change(e.target.value as M)}>
        <option value="bank_transfer">Bank transfer</option>
        <option value="cheque">Cheque</option>
        {children}
      </select>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

/** The day, the amount in pounds and the reference of money received or paid back, as
 * typed, each with its problem beside it (referenceError, when given, in place of the
 * reference's). */
export function MoneyFields({
  id,
  form,
  set,
  problems,
  dateLabel,
  amountHint,
  referenceHint,
  referenceError,
}: {
  id: string;
  form: { date: string; amount: string; reference: string };
  set: (change: Partial<{ date: string; amount: string; reference: string }>) => void;
  problems: Record<string, string>;
  dateLabel: string;
  amountHint?: string;
  referenceHint: string;
  referenceError?: string;
}) {
  return (
    <>
      <Field id={`${id}-date`} label={dateLabel} type="date" value={form.date} onChange={(e) => set({ date: e.target.value })} required error={problems.date} />
      <Field
        id={`${id}-amount`}
        label="Amount in pounds"
        hint={amountHint}
        inputMode="decimal"
        value={form.amount}
        onChange={(e) => set({ amount: e.target.value })}
        required
        error={problems.amount}
      />
      <Field
        id={`${id}-reference`}
        label="Reference"
        hint={referenceHint}
        value={form.reference}
        onChange={(e) => set({ reference: e.target.value })}
        maxLength={60}
        required
        error={referenceError ?? problems.reference}
      />
    </>
  );
}

/** The form a ledger entry's Allocate or Refund opens: its heading says what the entry has
 * left and takes the focus when it opens; the fields (children) only while something is
 * left, nothingLeft otherwise; Close. */
export function EntryForm({
  id,
  title,
  entry,
  save,
  outcome,
  reset,
  reload,
  close,
  nothingLeft,
  children,
}: {
  id: string;
  title: string;
  entry: LedgerEntry;
  save: (e: FormEvent) => void;
  outcome: Outcome;
  reset: () => void;
  reload: () => void;
  close: () => void;
  nothingLeft: string;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [entry.reference]);
  return (
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby={id}>
      <h2 id={id} ref={heading} tabIndex={-1}>
        {title} {entry.reference}: {formatPence(entry.unallocated)} left
      </h2>
      <FormOutcome
        outcome={outcome}
        reload={() => {
          reset();
          reload();
        }}
      />
      {entry.unallocated > 0 ? children : <p>{nothingLeft}</p>}
      <button type="button" className="link-button" onClick={close}>
        Close
      </button>
    </form>
  );
}
