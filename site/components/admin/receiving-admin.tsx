'use client';
import { useEffect, useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { apiErrorText } from '@/lib/api';
import { adminReceipts } from '@/lib/admin';
import type { AdminReceiptPage, AdminReceiptsPage } from '@/lib/api-types';
import { formatUkDateTime } from '@/lib/format';
import { ruleText } from '@/lib/receiving';
import { ReceiptRecord } from './receipt-record';
import { ReceiptView } from './receipt-view';

type List = { status: 'loading' } | { status: 'ready'; page: AdminReceiptsPage } | { status: 'failed'; text: string };

/** /admin/receiving/: deliveries of forward products (docs/forward-orders.md "Receiving and
 * allocation"). Staff record one (by hand or from a CSV file), review the proposal the
 * shop's rule makes, adjust it and apply it; the list shows every delivery. */
export function ReceivingAdmin() {
  const [list, setList] = useState<List>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [chosen, setChosen] = useState<string>('');
  const [recorded, setRecorded] = useState<AdminReceiptPage | null>(null);

  useEffect(() => {
    const ctl = new AbortController();
    adminReceipts(ctl.signal).then(
      (page) => setList({ status: 'ready', page }),
      (err: unknown) => !ctl.signal.aborted && setList({ status: 'failed', text: apiErrorText(err, 'The deliveries could not be loaded.') }),
    );
    return () => ctl.abort();
  }, [attempt]);

  return (
    <>
      <h1>Receiving deliveries</h1>
      <p>
        Record a delivery of forward products; the shop proposes how to share each SKU among its open forward orders
        {list.status === 'ready' && <> by its rule, {ruleText(list.page.rule)}</>}. Review the proposal, change any line, then apply it: each order with packs
        gets a release order (invoiced and dispatched as usual), short lines stay backordered or are cancelled for buyers who chose no backorders, and what is
        left goes to stock.
      </p>
      <ReceiptRecord
        recorded={(page) => {
          setRecorded(page);
          setChosen(page.id);
          setAttempt((n) => n + 1);
        }}
      />
      {chosen && <ReceiptView key={chosen} id={chosen} first={recorded?.id === chosen ? recorded : null} changed={() => setAttempt((n) => n + 1)} />}
      <section className="admin-actions" aria-labelledby="receipts-heading">
        <h2 id="receipts-heading">Deliveries</h2>
        {list.status === 'loading' && <p role="status">Loading the deliveries…</p>}
        {list.status === 'failed' && <LoadFailed what={list.text} retry={() => setAttempt((n) => n + 1)} />}
        {list.status === 'ready' && list.page.receipts.length === 0 && <p>No delivery has been recorded yet.</p>}
        {list.status === 'ready' && list.page.receipts.length > 0 && (
          <table className="basket-table admin-table receipts">
            <caption className="sr-only">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Recorded</th>
                <th scope="col">By</th>
                <th scope="col">SKUs</th>
                <th scope="col">Packs</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.page.receipts.map((r) => (
                <tr key={r.id} data-receipt={r.id} aria-current={r.id === chosen || undefined}>
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => setChosen(r.id)}>
                      {r.id}
                    </button>
                  </th>
                  <td data-label="Recorded">{formatUkDateTime(r.created_at)}</td>
                  <td data-label="By">{r.by}</td>
                  <td data-label="SKUs">{r.skus}</td>
                  <td data-label="Packs">{r.received}</td>
                  <td data-label="State">{r.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
