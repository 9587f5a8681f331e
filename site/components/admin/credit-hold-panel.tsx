'use client';
import { useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminCreditHold, adminLiftCreditHold, type CreditHold } from '@/lib/admin';
import { formatPence, formatUkDate } from '@/lib/format';
import { addDays, londonDay, londonMidnight } from '@/lib/london-dates';
import { FormOutcome } from './form-outcome';
import { useAdminRecord } from './use-admin-record';
import { useAdminSubmit } from './use-admin-submit';

/** How many days a lift holds unless staff choose, and at most (payments.DefaultLiftDays,
 * payments.MaxLiftDays). */
const LIFT_DAYS = 14;
const MAX_LIFT_DAYS = 90;

/** A London day (YYYY-MM-DD) as the pages write dates. */
const ukDay = (day: string) => formatUkDate(londonMidnight(day));

/** The account's credit hold (docs/back-office.md "Credit hold"): "On credit hold" with the
 * overdue invoice, or the lift in force, and Lift credit hold with a reason and a last day.
 * lifted reads the account again, so its trail shows the lift. */
export function CreditHoldPanel({ uid, lifted }: { uid: string; lifted: () => void }) {
  const { state, reload, replace } = useAdminRecord(() => adminCreditHold(uid), 'The credit hold could not be loaded.');
  return (
    <section aria-labelledby="credit-hold">
      <h2 id="credit-hold">Credit hold</h2>
      {state.status === 'loading' && <p role="status">Loading the credit hold…</p>}
      {state.status === 'failed' && <LoadFailed what={state.text} retry={reload} />}
      {state.status === 'ready' && (
        <>
          <HoldStatus hold={state.data} />
          {state.data.hold && (
            <LiftForm
              uid={uid}
              done={(h) => {
                replace(h);
                lifted();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}

/** "1 day overdue", "30 days overdue". */
const daysOverdue = (n: number) => `${n} ${n === 1 ? 'day' : 'days'} overdue`;

/** What the hold is now, in a sentence: held by an invoice, lifted until a day, or neither. */
export function HoldStatus({ hold: h }: { hold: CreditHold }) {
  const lift = h.lift?.active ? h.lift : null;
  return (
    <>
      {h.hold && !lift && (
        <p className="form-error credit-hold-status">
          On credit hold: invoice {h.hold.invoice} (order {h.hold.order_id}) is {daysOverdue(h.hold.days_overdue)} with {formatPence(h.hold.outstanding)} still
          owed. Orders on account are refused until it is paid or credited, or the hold is lifted; pro-forma orders are taken.
        </p>
      )}
      {lift && (
        <p className="credit-hold-status">
          Hold lifted until {ukDay(lift.until)} by {lift.by}: {lift.reason}
          {h.hold && ` (invoice ${h.hold.invoice} is ${daysOverdue(h.hold.days_overdue)})`}
        </p>
      )}
      {!h.hold && !lift && <p className="credit-hold-status">Not on credit hold: no invoice on account is more than {h.grace_days} days overdue.</p>}
    </>
  );
}

/** Lift credit hold: why (3 to 200 characters) and the last day it holds (today to 90 days
 * on; 14 days on unless changed). */
function LiftForm({ uid, done }: { uid: string; done: (h: CreditHold) => void }) {
  // Today as the form opened: the bounds of the last day are counted from it.
  const [today] = useState(() => londonDay(Date.now()));
  const [until, setUntil] = useState(() => addDays(today, LIFT_DAYS));
  const [reason, setReason] = useState('');
  const { busy, problems, setProblems, outcome, submit } = useAdminSubmit();

  function lift(e: FormEvent) {
    e.preventDefault();
    const p: Record<string, string> = {};
    if (reason.trim().length < 3) p.reason = 'Say why the hold is lifted, in 3 to 200 characters.';
    if (until && (until < today || until > addDays(today, MAX_LIFT_DAYS)))
      p.until = `The last day of the lift must be from today to ${MAX_LIFT_DAYS} days from today.`;
    setProblems(p);
    if (Object.keys(p).length) return;
    void submit(async () => {
      const h = await adminLiftCreditHold(uid, { until, reason });
      done(h);
      return 'The credit hold is lifted.';
    }, 'The credit hold could not be lifted.');
  }

  return (
    <form className="form admin-form" onSubmit={lift} noValidate aria-label="Lift credit hold">
      <FormOutcome outcome={outcome} />
      <Field id="hold-reason" label="Reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} required error={problems.reason} />
      <Field
        id="hold-until"
        label="Lifted until (the last day)"
        type="date"
        min={today}
        max={addDays(today, MAX_LIFT_DAYS)}
        value={until}
        onChange={(e) => setUntil(e.target.value)}
        error={problems.until}
      />
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? 'Lifting…' : 'Lift credit hold'}
      </button>
    </form>
  );
}
