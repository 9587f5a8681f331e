import { formatUkDateTime } from '@/lib/format';
import { ORDERS_ALARM_MS, OUTBOX_ALARM_MS, overdue, waitedFor, type HealthAnswer } from '@/lib/health';

/** The email outbox and the orders waiting, each with a plain warning when its oldest has
 * waited longer than the alarm allows (docs/operations.md). */
export function HealthBacklogs({ health }: { health: HealthAnswer }) {
  const now = health.checked_at;
  const { outbox } = health;
  return (
    <section aria-labelledby="health-backlogs">
      <h2 id="health-backlogs">Email and orders waiting</h2>
      <dl className="summary-list admin-facts">
        <dt>Emails waiting to be sent</dt>
        <dd className="health-outbox-waiting">
          <Count n={outbox.waiting} more={outbox.more} />
          <Oldest at={outbox.oldest_waiting_at} now={now} />
        </dd>
        <dt>Emails that failed</dt>
        <dd className="health-outbox-failed">{outbox.failed}</dd>
        <dt>Orders pending</dt>
        <dd className="health-orders-pending">
          <Count n={health.orders_pending.count} more={health.orders_pending.more} />
          <Oldest at={health.orders_pending.oldest_at} now={now} />
        </dd>
        <dt>Orders waiting for an invoice</dt>
        <dd className="health-orders-to-invoice">
          <Count n={health.orders_to_invoice.count} more={health.orders_to_invoice.more} />
          <Oldest at={health.orders_to_invoice.oldest_at} now={now} />
        </dd>
      </dl>
      {overdue(outbox.oldest_waiting_at, OUTBOX_ALARM_MS, now) && (
        <p className="form-error" role="alert">
          An email has waited {waitedFor(now - outbox.oldest_waiting_at!)} to be sent, longer than {OUTBOX_ALARM_MS / 60_000} minutes: the email sender may have
          stopped.
        </p>
      )}
      {overdue(health.orders_pending.oldest_at, ORDERS_ALARM_MS, now) && (
        <p className="form-error" role="alert">
          An order has been pending for {waitedFor(now - health.orders_pending.oldest_at!)}, longer than {ORDERS_ALARM_MS / 60_000} minutes: the order sweep may
          have stopped.
        </p>
      )}
      {overdue(health.orders_to_invoice.oldest_at, ORDERS_ALARM_MS, now) && (
        <p className="form-error" role="alert">
          An order has waited {waitedFor(now - health.orders_to_invoice.oldest_at!)} for its invoice, longer than {ORDERS_ALARM_MS / 60_000} minutes: the
          invoice sweep may have stopped.
        </p>
      )}
    </section>
  );
}

/** A count the server may have stopped at (more): "500 or more". */
const Count = ({ n, more }: { n: number; more: boolean }) => <>{more ? `${n} or more` : n}</>;

function Oldest({ at, now }: { at: number | null; now: number }) {
  if (at === null) return null;
  return (
    <span className="muted">
      {' '}
      (the oldest since {formatUkDateTime(at)}, {waitedFor(now - at)})
    </span>
  );
}
