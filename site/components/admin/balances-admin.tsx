'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import Link from '@/components/app/link';
import { LoadFailed } from '@/components/errors/load-failed';
import { apiErrorText } from '@/lib/api';
import { formatPence } from '@/lib/format';
import { adminBalances, sortBalances, type AccountBalance, type BalanceColumn, type Balances } from '@/lib/statements';
import { AgedDebtDownload } from './aged-debt-download';
import { formatLondonDay } from '@/lib/london-dates';

type State = { status: 'loading' } | { status: 'failed'; text: string } | { status: 'ready'; data: Balances };

const COLUMNS: { key: BalanceColumn; label: string; money: boolean }[] = [
  { key: 'business', label: 'Business', money: false },
  { key: 'balance', label: 'Balance', money: true },
  { key: 'due', label: 'Due', money: true },
  { key: 'overdue', label: 'Overdue', money: true },
  { key: 'oldest_overdue_days', label: 'Oldest overdue (days)', money: false },
];

/** /admin/balances/: every trade account with a balance (GET /api/admin/balances), sortable
 * by each column, each linked to its account page; and the aged debt report as CSV. */
export function BalancesAdmin() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [sort, setSort] = useState<{ key: BalanceColumn; ascending: boolean }>({ key: 'overdue', ascending: false });
  const live = useRef<AbortController | null>(null);
  const load = useCallback(() => {
    live.current?.abort();
    const ctl = new AbortController();
    live.current = ctl;
    setState({ status: 'loading' });
    adminBalances(ctl.signal)
      .then((data) => !ctl.signal.aborted && setState({ status: 'ready', data }))
      .catch((err: unknown) => !ctl.signal.aborted && setState({ status: 'failed', text: apiErrorText(err, 'The balances could not be loaded.') }));
  }, []);
  useEffect(() => {
    load();
    return () => live.current?.abort();
  }, [load]);
  const by = (key: BalanceColumn) => setSort((s) => ({ key, ascending: s.key === key ? !s.ascending : key === 'business' }));
  return (
    <>
      <h1>Balances</h1>
      <p>
        Every trade account that owes or holds money today. Overdue is what is past its due date; the aged debt report splits each account’s debt by days past
        due.
      </p>
      <AgedDebtDownload />
      {state.status === 'loading' && <p role="status">Loading the balances…</p>}
      {state.status === 'failed' && <LoadFailed what={state.text} retry={load} />}
      {state.status === 'ready' && state.data.accounts.length === 0 && <p>No account owes or holds anything.</p>}
      {state.status === 'ready' && state.data.accounts.length > 0 && (
        <table className="basket-table admin-table balances-table">
          <caption>Balances on {formatLondonDay(state.data.date)}</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.key} scope="col" aria-sort={sort.key === c.key ? (sort.ascending ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="link-button" onClick={() => by(c.key)}>
                    {c.label}
                    {sort.key === c.key ? (sort.ascending ? ' ▲' : ' ▼') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sortBalances(state.data.accounts, sort.key, sort.ascending).map((a) => (
              <BalanceRow key={a.uid} a={a} />
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td>{formatPence(state.data.totals.balance)}</td>
              <td>{formatPence(state.data.totals.due)}</td>
              <td>{formatPence(state.data.totals.overdue)}</td>
              <td>{state.data.totals.oldest_overdue_days}</td>
            </tr>
          </tfoot>
        </table>
      )}
    </>
  );
}

function BalanceRow({ a }: { a: AccountBalance }) {
  return (
    <tr data-uid={a.uid}>
      <td>
        <Link href={`/admin/accounts/?uid=${encodeURIComponent(a.uid)}`}>{a.business || '(no business name)'}</Link>
      </td>
      <td>{formatPence(a.balance)}</td>
      <td>{formatPence(a.due)}</td>
      <td>{formatPence(a.overdue)}</td>
      <td>{a.oldest_overdue_days}</td>
    </tr>
  );
}
