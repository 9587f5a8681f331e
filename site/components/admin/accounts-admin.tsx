'use client';
import Link from '@/components/app/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminAccounts } from '@/lib/admin';
import { formatPence } from '@/lib/format';
import { AdminAccountDetail } from './account-detail';
import { ListPager } from './list-pager';
import { useCursorList } from './use-cursor-list';

/** /admin/accounts/: the accounts by business name, searched by business or email; with
 * ?uid= one account to approve for credit and give discounts. */
export function AccountsAdmin() {
  const params = useSearchParams();
  const uid = (params.get('uid') ?? '').trim();
  if (uid) return <AdminAccountDetail key={uid} uid={uid} />;
  const q = (params.get('q') ?? '').trim();
  return (
    <>
      <h1>Accounts</h1>
      <AccountSearch key={q} q={q} />
      <AccountsTable key={`q|${q}`} q={q} />
    </>
  );
}

function AccountSearch({ q }: { q: string }) {
  const router = useRouter();
  const [text, setText] = useState(q);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    router.replace(t ? `/admin/accounts/?q=${encodeURIComponent(t)}` : '/admin/accounts/');
  };
  return (
    <form className="admin-filters" role="search" aria-label="Accounts" onSubmit={submit}>
      <div className="field">
        <label htmlFor="account-q">Business name or email</label>
        <input id="account-q" type="search" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} />
      </div>
      <button type="submit" className="button">
        Find accounts
      </button>
    </form>
  );
}

function AccountsTable({ q }: { q: string }) {
  const table = useRef<HTMLTableElement>(null);
  const list = useCursorList(`accounts|${q}`, (cursor, signal) => adminAccounts({ q, cursor }, signal), 'The accounts could not be loaded.', table);
  if (list.error) return <LoadFailed what={list.error} retry={list.retry} />;
  if (!list.items) return <p role="status">Loading accounts…</p>;
  if (list.items.length === 0) return <p>{q ? 'No accounts match.' : 'There are no accounts yet.'}</p>;
  return (
    <>
      <table className="basket-table admin-table" ref={table} tabIndex={-1}>
        <caption className="sr-only">Accounts by business name, page {list.pageNumber}</caption>
        <thead>
          <tr>
            <th scope="col">Business</th>
            <th scope="col">Email</th>
            <th scope="col">Credit</th>
            <th scope="col">Owed</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((a) => (
            <tr key={a.uid}>
              <th scope="row">
                <Link href={`/admin/accounts/?uid=${encodeURIComponent(a.uid)}`}>{a.business || '(no business name)'}</Link>
              </th>
              <td data-label="Email">{a.email}</td>
              <td data-label="Credit">
                {a.approved_for_credit ? (a.credit_limit === null ? 'Approved, no limit set' : `Approved to ${formatPence(a.credit_limit)}`) : 'Pro-forma only'}
              </td>
              <td data-label="Owed">{formatPence(a.owed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ListPager
        label="Accounts pages"
        pageNumber={list.pageNumber}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        busy={list.loading}
        goNext={list.goNext}
        goPrevious={list.goPrevious}
      />
    </>
  );
}
