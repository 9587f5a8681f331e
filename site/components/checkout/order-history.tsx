'use client';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { listOrders, type Order } from '@/lib/checkout';
import { formatPence } from '@/lib/format';
import { LoadFailed } from '@/components/errors/load-failed';

/** The buyer's orders, newest first, for the dashboard and /account/orders/. */
export function OrderHistory({ uid }: { uid: string }) {
  const [orders, setOrders] = useState<Order[] | null>(null);
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    listOrders()
      .then((o) => live && setOrders(o))
      .catch(() => live && setError(true));
    return () => {
      live = false;
    };
  }, [uid, attempt]);
  if (error) {
    return (
      <LoadFailed
        what="Your orders could not be loaded."
        retry={() => {
          setError(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (!orders) return <p role="status">Loading your orders…</p>;
  if (orders.length === 0) return <p>You have not placed any orders yet.</p>;
  return (
    <ul className="order-list">
      {orders.map((o) => (
        <li key={o.id}>
          <Link href={`/account/orders/?id=${encodeURIComponent(o.id)}`}>{o.id}</Link>{' '}
          <span className="muted">
            {new Date(o.placed_at).toLocaleDateString('en-GB')} · {o.lines.length} {o.lines.length === 1 ? 'line' : 'lines'} · {formatPence(o.total_inc_vat)} inc VAT
          </span>
        </li>
      ))}
    </ul>
  );
}
