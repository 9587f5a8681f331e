'use client';
import type { ProposalSKUAnswer } from '@/lib/api-types';
import { formatUkDate } from '@/lib/format';
import { editKey, packsOf, skuTotals, type Edits } from '@/lib/receiving';

/** One SKU's proposal: each open forward line, oldest first, with the packs it wants and
 * the packs proposed (a number staff may change); the totals follow the edits. */
export function ReceiptProposal({
  sku,
  edits,
  setEdits,
  problems,
}: {
  sku: ProposalSKUAnswer;
  edits: Edits;
  setEdits: (f: (e: Edits) => Edits) => void;
  problems: Record<string, string>;
}) {
  const totals = skuTotals(sku, edits);
  const headingId = `proposal-${sku.sku}`;
  return (
    <div className="receipt-sku" data-sku={sku.sku}>
      <h3 id={headingId}>
        {sku.name} ({sku.sku}): {sku.received} packs of {sku.pack_size} received
      </h3>
      {sku.rows.length === 0 ? (
        <p>No forward order is waiting for it: every pack goes to stock.</p>
      ) : (
        <table className="basket-table admin-table proposal" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Account</th>
              <th scope="col">Ordered on</th>
              <th scope="col">Wants (packs)</th>
              <th scope="col">Proposed (packs)</th>
              <th scope="col">Short</th>
              <th scope="col">No backorders</th>
            </tr>
          </thead>
          <tbody>
            {sku.rows.map((r) => {
              const key = editKey(sku.sku, r.line_sk);
              const packs = packsOf(edits, sku.sku, r.line_sk, r.proposed);
              return (
                <tr key={r.line_sk} data-order={r.order_id}>
                  <th scope="row">{r.order_id}</th>
                  <td data-label="Account">{r.company || r.email}</td>
                  <td data-label="Ordered on">{formatUkDate(r.placed_at)}</td>
                  <td data-label="Wants">{r.want}</td>
                  <td data-label="Proposed">
                    <input
                      aria-label={`Packs for ${r.order_id}`}
                      inputMode="numeric"
                      size={4}
                      value={edits[key] ?? String(r.proposed)}
                      onChange={(e) => setEdits((all) => ({ ...all, [key]: e.target.value }))}
                    />
                  </td>
                  <td data-label="Short">{Math.max(r.want - packs, 0)}</td>
                  <td data-label="No backorders">{r.no_backorders ? 'Yes: short packs are cancelled' : 'No'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p className="receipt-totals" aria-live="polite">
        Allocated {totals.released} of {sku.received} packs; {totals.leftover} to stock.
      </p>
      {[
        ...totals.problems,
        ...Object.entries(problems)
          .filter(([k]) => k.startsWith('allocations') || k.startsWith('lines'))
          .map(([, v]) => v),
      ].map((p) => (
        <p key={p} className="field-error">
          {p}
        </p>
      ))}
    </div>
  );
}
