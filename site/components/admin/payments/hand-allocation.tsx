import type { HandAmounts, OpenInvoice } from '@/lib/payment-forms';
import { formatPence } from '@/lib/format';

/** Allocation by hand: a row per open invoice, oldest first, with what it still owes and
 * the pounds to set against it (blank for none); each row's problem beside it. */
export function HandAllocation({
  id,
  invoices,
  amounts,
  change,
  problems,
}: {
  id: string;
  invoices: OpenInvoice[];
  amounts: HandAmounts;
  change: (a: HandAmounts) => void;
  problems: Record<string, string>;
}) {
  if (!invoices.length) return <p className="field-error">No invoice on the account owes anything.</p>;
  return (
    <fieldset className="field hand-allocation">
      <legend>Amount for each invoice, in pounds</legend>
      {problems.lines && (
        <p id={`${id}-lines-error`} className="field-error">
          {problems.lines}
        </p>
      )}
      {invoices.map((inv) => {
        const field = `${id}-${inv.invoice}`;
        const error = problems[`line-${inv.invoice}`];
        return (
          <div className="field" key={inv.invoice}>
            <label htmlFor={field}>
              {inv.invoice} ({inv.orderId}) owes {formatPence(inv.outstanding)}
              {inv.dueOn && `, due ${inv.dueOn}`}
              {inv.pastDue && ' · Overdue'}
            </label>
            <input
              id={field}
              inputMode="decimal"
              value={amounts[inv.invoice] ?? ''}
              onChange={(e) => change({ ...amounts, [inv.invoice]: e.target.value })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${field}-error` : undefined}
            />
            {error && (
              <p id={`${field}-error`} className="field-error">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

/** How to allocate: oldest first, by hand, and (recording a payment) not yet. */
export function AllocateChoice<T extends string>({ id, value, choices, change }: { id: string; value: T; choices: [T, string][]; change: (v: T) => void }) {
  return (
    <fieldset className="field">
      <legend>Allocate</legend>
      {choices.map(([v, label]) => (
        <div className="check" key={v}>
          <input id={`${id}-${v}`} type="radio" name={`${id}-allocate`} checked={value === v} onChange={() => change(v)} />
          <label htmlFor={`${id}-${v}`}>{label}</label>
        </div>
      ))}
    </fieldset>
  );
}
