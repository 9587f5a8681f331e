'use client';
import Link from '@/components/app/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminOrders } from '@/lib/admin';
import { formatPence, formatUkDateTime } from '@/lib/format';
import { STATUS_FILTERS, statusWord } from '@/lib/order-status';
import { ListPager } from './list-pager';
import { useCursorList } from './use-cursor-list';

const knownStatus = (s: string | null) => (STATUS_FILTERS.some((f) => f.value === s) ? (s as string) : '');

/** /admin/: the orders, newest first, 25 a page, filtered by status and searched by order
 * number, business or PO reference. The filter lives in the address (?status=&q=), so Back
 * from an order comes back to it. */
export function OrdersList() {
  const params = useSearchParams();
  const status = knownStatus(params.get('status'));
  const q = (params.get('q') ?? '').trim();
  return (
    <>
      <h1>Orders</h1>
      <OrderFilters key={q} status={status} q={q} />
      <OrdersTable key={`${status}|${q}`} status={status} q={q} />
    </>
  );
}

function OrderFilters({ status, q }: { status: string; q: string }) {
  const router = useRouter();
  const [text, setText] = useState(q);
  const go = (s: string, t: string) => {
    const p = new URLSearchParams();
    if (s) p.set('status', s);
    if (t.trim()) p.set('q', t.trim());
    const query = p.toString();
    router.replace(query ? `/admin/?${query}` : '/admin/');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go(status, text);
  };
  return (
    <form className="admin-filters" role="search" aria-label="Orders" onSubmit={submit}>
      <div className="field">
        <label htmlFor="order-status">Status</label>
        <select id="order-status" value={status} onChange={(e) => go(e.target.value, text)}>
          {STATUS_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="order-q">Order number, business or PO reference</label>
        <input id="order-q" type="search" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} />
      </div>
      <button type="submit" className="button">
        Find orders
      </button>
    </form>
  );
}

function OrdersTable({ status, q }: { status: string; q: string }) {
  const table = useRef<HTMLTableElement>(null);
  const list = useCursorList(`orders|${status}|${q}`, (cursor, signal) => adminOrders({ status, q, cursor }, signal), 'The orders could not be loaded.', table);
  if (list.error) return <LoadFailed what={list.error} retry={list.retry} />;
  if (!list.items) return <p role="status">Loading orders…</p>;
  if (list.items.length === 0) return <p>{status || q ? 'No orders match.' : 'There are no orders yet.'}</p>;
  return (
    <>
      <table className="basket-table admin-table" ref={table} tabIndex={-1}>
        <caption className="sr-only">Orders, newest first, page {list.pageNumber}</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Placed</th>
            <th scope="col">Business</th>
            <th scope="col">PO reference</th>
            <th scope="col">Payment</th>
            <th scope="col">Status</th>
            <th scope="col">Lines</th>
            <th scope="col">Total inc VAT</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((o) => (
            <tr key={o.id}>
              <th scope="row">
                <Link href={`/admin/orders/?id=${encodeURIComponent(o.id)}`}>{o.id}</Link>
              </th>
              <td data-label="Placed">{formatUkDateTime(o.placed_at)}</td>
              <td data-label="Business">
                {o.business || o.company}
                <span className="muted admin-sub">{o.email}</span>
              </td>
              <td data-label="PO reference">{o.po_ref || '—'}</td>
              <td data-label="Payment">
                {o.payment_method === 'account' ? 'On account' : o.payment_method === 'card' ? 'Card' : 'Pro-forma'}, {o.paid ? 'paid' : 'unpaid'}
              </td>
              <td data-label="Status">
                <span className={`status status-${statusWord(o.status).toLowerCase()}`}>{statusWord(o.status)}</span>
              </td>
              <td data-label="Lines">{o.lines}</td>
              <td data-label="Total inc VAT">{formatPence(o.total_inc_vat)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ListPager
        label="Orders pages"
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
