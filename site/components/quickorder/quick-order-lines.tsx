'use client';
import Link from '@/components/app/link';
import { useEffect, useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { addLabel, addedSentence } from '@/lib/quick-order';
import { OrderRow, skuBoxId, type RowActions } from './order-row';
import type { useQuickOrder } from './use-quick-order';

const lines = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;

/** The rows, a line of counts, and "Add N lines to basket" with what the add came to. */
export function QuickOrderLines({ order }: { order: ReturnType<typeof useQuickOrder> }) {
  /** The row whose SKU box takes the focus once it is on the page. */
  const [focusKey, setFocusKey] = useState<number | null>(null);
  useEffect(() => {
    if (focusKey === null) return;
    document.getElementById(skuBoxId(focusKey))?.focus();
    setFocusKey(null);
  }, [focusKey, order.rows]);

  const { rows, statuses } = order;
  const actions: RowActions = {
    setSku: order.setSku,
    setPacks: order.setPacks,
    pick: order.pick,
    setUnits: order.setUnits,
    remove: (key) => {
      // The focus goes on to the next line (or the one before, for the last).
      const i = rows.findIndex((r) => r.key === key);
      const to = rows[i + 1] ?? rows[i - 1];
      order.remove(key);
      if (to) setFocusKey(to.key);
    },
    next: (key) => setFocusKey(order.rowAfter(key)),
    left: () => void order.check(),
  };

  const count = (...kinds: string[]) => statuses.filter((s) => kinds.includes(s.kind)).length;
  const toFix = count('invalid', 'problem');
  const checking = count('checking');
  const used = rows.length - count('empty');
  const notice = order.notice;

  return (
    <section className="qo-lines" aria-labelledby="qo-lines-title">
      <h2 id="qo-lines-title">Lines</h2>
      <table className="basket-table qo-table">
        <caption className="sr-only">The lines of your quick order</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">SKU</th>
            <th scope="col">Packs</th>
            <th scope="col">Product</th>
            <th scope="col">Your price ex VAT</th>
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <OrderRow key={r.key} row={r} status={statuses[i]!} line={i + 1} actions={actions} />
          ))}
        </tbody>
      </table>
      {order.checkError && <LoadFailed what={order.checkError} retry={() => void order.check()} />}
      <div className="qo-add">
        <button
          type="button"
          className="button"
          aria-disabled={order.adding || undefined}
          onClick={() => {
            if (!order.adding) void order.addGood();
          }}
        >
          {order.adding ? 'Adding…' : addLabel(order.good)}
        </button>
        <p className="muted qo-counts" role="status">
          {used === 0
            ? 'No lines yet.'
            : [`${lines(used)}: ${order.good} ready`, toFix > 0 && `${toFix} to fix`, checking > 0 && `${checking} being checked`].filter(Boolean).join(', ') +
              '.'}
        </p>
        {notice &&
          (notice.ok ? (
            <p className="form-ok qo-notice" role="status">
              {addedSentence(notice.added)} <Link href="/checkout/basket/">View your basket</Link>
            </p>
          ) : (
            <p className="form-error qo-notice" role="alert">
              {notice.text}
            </p>
          ))}
      </div>
    </section>
  );
}
