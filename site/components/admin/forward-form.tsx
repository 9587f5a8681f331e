'use client';
import { useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import type { ProductWithAudit, StockProduct } from '@/lib/admin';
import { adminForward, checkForwardForm, forwardForm, type ForwardForm as Form } from '@/lib/forward-admin';
import { formatLondonDay } from '@/lib/london-dates';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** The stock page's "Forward (pre-order)" form (docs/forward-orders.md "Marking a product
 * forward"): the delivery date, the order-by date and the units expected; Save marks the
 * product forward (or changes its marking), End pre-order ends it. Each is in the trail. */
export function ForwardForm({ product, saved }: { product: StockProduct; saved: (p: ProductWithAudit) => void }) {
  const [form, setForm] = useState<Form>(() => forwardForm(product.forward));
  const { busy, problems, setProblems, outcome, submit } = useAdminSubmit();
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  function save(e: FormEvent) {
    e.preventDefault();
    const r = checkForwardForm(form);
    if (!r.ok) {
      setProblems(r.problems);
      return;
    }
    void submit(async () => {
      const answer = await adminForward(product.sku, r.value);
      saved(answer);
      setForm(forwardForm(answer.product.forward));
      return `${product.sku} is on pre-order until ${formatLondonDay(r.value.order_by)}, for delivery from ${formatLondonDay(r.value.delivery_from)}.`;
    }, 'The forward marking could not be saved.');
  }
  function end() {
    void submit(async () => {
      const answer = await adminForward(product.sku, null);
      saved(answer);
      setForm(forwardForm(null));
      return `${product.sku} is no longer on pre-order.`;
    }, 'The pre-order could not be ended.');
  }
  return (
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby="forward-heading">
      <h3 id="forward-heading">Forward (pre-order)</h3>
      <p className="muted">
        {product.forward
          ? `On pre-order until ${formatLondonDay(product.forward.order_by)}, for delivery from ${formatLondonDay(product.forward.delivery_from)}.`
          : 'Not on pre-order: buyers buy it from the stock on hand.'}
      </p>
      <FormOutcome outcome={outcome} />
      <Field
        id="forward-from"
        label="Delivery from"
        type="date"
        value={form.delivery_from}
        onChange={(e) => set({ delivery_from: e.target.value })}
        required
        error={problems.delivery_from}
      />
      <Field
        id="forward-by"
        label="Order by"
        hint="The last day buyers may pre-order (UK time), on or before the delivery date."
        type="date"
        value={form.order_by}
        onChange={(e) => set({ order_by: e.target.value })}
        required
        error={problems.order_by}
      />
      <Field
        id="forward-expected"
        label="Expected units"
        hint="From the supplier, if known. Staff only."
        inputMode="numeric"
        value={form.expected}
        onChange={(e) => set({ expected: e.target.value })}
        error={problems.expected}
      />
      <p>
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>{' '}
        {product.forward && (
          <button type="button" className="button" onClick={end} aria-disabled={busy}>
            End pre-order
          </button>
        )}
      </p>
    </form>
  );
}
