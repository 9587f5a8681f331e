'use client';
import Link from '@/components/app/link';
import { useEffect, useRef, useState } from 'react';
import { listOrders, type Order } from '@/lib/checkout';
import { formatPence } from '@/lib/format';
import { progressNote, statusWord } from '@/lib/order-status';
import { LoadFailed } from '@/components/errors/load-failed';

/** The buyer's orders, newest first, a page at a time (20), for the dashboard and
 * /account/orders/, each with its status in words (and its carrier and tracking reference
 * once dispatched): "Show more" appends the next page while there is one. */
export function OrderHistory({ uid }: { uid: string }) {
  const [orders, setOrders] = useState<Order[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [more, setMore] = useState<'idle' | 'loading' | 'failed'>('idle');
  /** The first order of the page just appended: it takes the focus from the button. */
  const focusOn = useRef<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    let live = true;
    listOrders()
      .then((p) => {
        if (!live) return;
        setOrders(p.orders);
        setNext(p.next);
        setMore('idle');
      })
      .catch(() => live && setError(true));
    return () => {
      live = false;
    };
  }, [uid, attempt]);
  useEffect(() => {
    if (!focusOn.current) return;
    list.current?.querySelector<HTMLAnchorElement>(`a[data-order="${CSS.escape(focusOn.current)}"]`)?.focus();
    focusOn.current = null;
  }, [orders]);

  async function showMore() {
    if (!next || more === 'loading') return;
    setMore('loading');
    try {
      const p = await listOrders(next);
      focusOn.current = p.orders[0]?.id ?? null;
      setOrders((have) => [...(have ?? []), ...p.orders.filter((o) => !have?.some((h) => h.id === o.id))]);
      setNext(p.next);
      setMore('idle');
    } catch {
      setMore('failed');
    }
  }

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
    <>
      <ul className="order-list" ref={list}>
        {orders.map((o) => (
          <li key={o.id}>
            <Link href={`/account/orders/?id=${encodeURIComponent(o.id)}`} data-order={o.id}>
              {o.id}
            </Link>{' '}
            {o.kind === 'forward' ? (
              <span className="status status-forward">Forward</span>
            ) : (
              <span className={`status status-${statusWord(o.status).toLowerCase()}`}>{statusWord(o.status)}</span>
            )}{' '}
            <span className="muted">
              {new Date(o.placed_at).toLocaleDateString('en-GB')} · {o.lines.length} {o.lines.length === 1 ? 'line' : 'lines'} · {formatPence(o.total_inc_vat)}{' '}
              inc VAT
            </span>
            {progressNote(o) && <span className="order-progress">{progressNote(o)}</span>}
          </li>
        ))}
      </ul>
      {next !== null && more === 'failed' && <LoadFailed what="More orders could not be loaded." retry={showMore} />}
      {next !== null && more !== 'failed' && (
        <p className="order-list-more">
          <button type="button" className="button" onClick={showMore} aria-disabled={more === 'loading'} aria-busy={more === 'loading'}>
            {more === 'loading' ? 'Loading more orders…' : 'Show more orders'}
          </button>
        </p>
      )}
    </>
  );
}
