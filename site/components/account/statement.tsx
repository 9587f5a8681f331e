'use client';
import { useEffect, useState } from 'react';
import Link from '@/components/app/link';
import { LoadFailed } from '@/components/errors/load-failed';
import { formatPence } from '@/lib/format';
import { formatLondonDay } from '@/lib/london-dates';
import { AGEING_LABELS, showsStatement, statement, type Statement } from '@/lib/statements';
import { StatementDownload } from './statement-download';

const day = formatLondonDay;

/** The dashboard's statement of account (GET /api/account/statement): the balance, what is
 * due and overdue, the ageing, each open invoice with what it owes and when it was due, and
 * the PDF. Shown to a buyer on account, or to any buyer with a balance. */
export function StatementOfAccount({ uid }: { uid: string }) {
  const [answer, setAnswer] = useState<Statement | null | undefined>(undefined);
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    statement()
      .then((a) => live && setAnswer(a))
      .catch(() => live && setError(true));
    return () => {
      live = false;
    };
  }, [uid, attempt]);
  if (error) {
    return (
      <LoadFailed
        what="Your statement could not be loaded."
        retry={() => {
          setError(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (answer === undefined) return <p role="status">Loading your statement…</p>;
  if (answer === null || !showsStatement(answer)) return null;
  return <StatementView answer={answer} />;
}

/** A statement as the dashboard draws it. */
export function StatementView({ answer }: { answer: Statement }) {
  return (
    <section aria-labelledby="statement-heading" className="statement">
      <h2 id="statement-heading">Statement of account</h2>
      <p>As at {day(answer.date)}.</p>
      <dl className="summary-list statement-figures">
        <dt>Balance</dt>
        <dd data-testid="statement-balance">{formatPence(answer.balance)}</dd>
        <dt>Due on open invoices</dt>
        <dd>{formatPence(answer.due)}</dd>
        <dt>Overdue</dt>
        <dd data-testid="statement-overdue">{formatPence(answer.overdue)}</dd>
        {answer.unallocated !== 0 && (
          <>
            <dt>Credit on account</dt>
            <dd>{formatPence(answer.unallocated)}</dd>
          </>
        )}
      </dl>
      <p className="statement-ageing">{answer.ageing.map((b) => `${AGEING_LABELS[b.bucket]} ${formatPence(b.amount)}`).join(' · ')}</p>
      {answer.open_items.length === 0 ? (
        <p>No invoice owes anything.</p>
      ) : (
        <div>
          <table className="basket-table">
            <caption>Open invoices</caption>
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col">Date</th>
                <th scope="col">Order</th>
                <th scope="col">Due</th>
                <th scope="col">Amount</th>
                <th scope="col">Owes</th>
              </tr>
            </thead>
            <tbody>
              {answer.open_items.map((it) => (
                <tr key={it.invoice}>
                  <td>{it.invoice}</td>
                  <td>{day(it.date)}</td>
                  <td>
                    <Link href={`/account/orders/?id=${encodeURIComponent(it.order_id)}`}>{it.order_id}</Link>
                  </td>
                  <td>
                    {day(it.due_on)}
                    {it.past_due && <strong> ({it.days_overdue} days overdue)</strong>}
                  </td>
                  <td>{formatPence(it.amount)}</td>
                  <td>{formatPence(it.outstanding)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <StatementDownload date={answer.date} />
    </section>
  );
}
