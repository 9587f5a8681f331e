'use client';
import { useEffect, useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { listForwardOrders, type ForwardOrder } from '@/lib/forward-orders';
import { ForwardOrderCard } from './forward-order-card';

/** The dashboard's "Forward orders": the buyer's forward orders, newest first, each line
 * with its state and, until its order-by date, Reduce and Cancel line. */
export function ForwardOrders({ uid }: { uid: string }) {
  const [list, setList] = useState<ForwardOrder[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    listForwardOrders()
      .then((l) => live && setList(l))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [uid, attempt]);
  if (failed)
    return (
      <LoadFailed
        what="Your forward orders could not be loaded."
        retry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  if (!list) return <p role="status">Loading your forward orders…</p>;
  if (list.length === 0) return <p>You have no forward orders. Pre-order products show “Pre-order for delivery from …” on their page.</p>;
  const replace = (o: ForwardOrder) => setList((have) => (have ?? []).map((h) => (h.id === o.id ? o : h)));
  return (
    <ul className="forward-orders">
      {list.map((o) => (
        <li key={o.id}>
          <ForwardOrderCard order={o} changed={replace} />
        </li>
      ))}
    </ul>
  );
}
