'use client';
import { useRef, useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { adminOrderCredit, type AdminOrder, type OrderWithAudit } from '@/lib/admin';
import { formatPence, parsePounds } from '@/lib/format';
import { characterProblem } from '@/lib/validation';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** Credit lines (before dispatch: the units come off what is sent and go back to stock) or
 * Record a return (after dispatch: restock per line), with any part of the delivery, as a
 * VAT credit note. Shown for an invoiced order that is not cancelled; a 409 says the
 * server's sentence and offers Reload. */
export function CreditForm({ order, done, reload }: { order: AdminOrder; done: (a: OrderWithAudit) => void; reload: () => void }) {
  const { busy, problems, setProblems, outcome, submit, reset } = useAdminSubmit();
  const [open, setOpen] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const dispatched = order.status === 'dispatched' || order.status === 'completed';
  const creditable = !!order.invoice && ['placed', 'confirmed', 'dispatched', 'completed'].includes(order.status);
  const title = dispatched ? 'Record a return' : 'Credit lines';
  const deliveryLeft = order.delivery_charge_left;
  if (!creditable && !outcome) return null;

  async function send(lines: { line: number; units: number; restock: boolean }[], delivery: number, reason: string) {
    const ok = await submit(async () => {
      const after = await adminOrderCredit(order.id, { version: order.version, lines, delivery, reason });
      done(after);
      const note = after.order.credit_notes.at(-1);
      return note ? `Credit note ${note.number} issued: ${formatPence(note.total_inc_vat)} inc VAT.` : 'Credit note issued.';
    }, `Order ${order.id} could not be credited.`);
    if (ok) {
      setOpen(false);
      heading.current?.focus();
    }
  }

  return (
    <section className="admin-actions" aria-labelledby="order-credit">
      <h2 id="order-credit" ref={heading} tabIndex={-1}>
        Credit notes
      </h2>
      <FormOutcome
        outcome={outcome}
        reload={() => {
          reset();
          setOpen(false);
          reload();
        }}
      />
      {creditable && (
        <button
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls="credit-form"
          onClick={() => {
            setProblems({});
            setOpen(!open);
          }}
        >
          {title}…
        </button>
      )}
      {open && creditable && (
        <CreditLinesForm
          order={order}
          dispatched={dispatched}
          deliveryLeft={deliveryLeft}
          title={title}
          busy={busy}
          problems={problems}
          setProblems={setProblems}
          send={send}
          close={() => setOpen(false)}
        />
      )}
    </section>
  );
}

type Props = {
  order: AdminOrder;
  dispatched: boolean;
  deliveryLeft: number;
  title: string;
  busy: boolean;
  problems: Record<string, string>;
  setProblems: (p: Record<string, string>) => void;
  send: (lines: { line: number; units: number; restock: boolean }[], delivery: number, reason: string) => Promise<void>;
  close: () => void;
};

/** A row per line with units left to credit: units to credit and, after dispatch, whether
 * they go back to stock; the delivery in pounds; the reason (required, printed on the note). */
function CreditLinesForm({ order, dispatched, deliveryLeft, title, busy, problems, setProblems, send, close }: Props) {
  const [units, setUnits] = useState<Record<number, string>>({});
  const [restock, setRestock] = useState<Record<number, boolean>>({});
  const [delivery, setDelivery] = useState('');
  const [reason, setReason] = useState('');
  const rows = order.lines.map((l, i) => ({ l, i, left: l.to_send })).filter((r) => r.left > 0);

  function submit(e: FormEvent) {
    e.preventDefault();
    const p: Record<string, string> = {};
    const lines: { line: number; units: number; restock: boolean }[] = [];
    for (const { l, i, left } of rows) {
      const text = (units[i] ?? '').trim();
      if (!text) continue;
      const n = /^\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isInteger(n) || n < 0 || n > left) p[`units-${i}`] = `Enter 0 to ${left} units of ${l.sku}.`;
      else if (n > 0) lines.push({ line: i, units: n, restock: dispatched ? !!restock[i] : true });
    }
    let pence = 0;
    if (delivery.trim()) {
      const v = parsePounds(delivery);
      if (v === null || v > deliveryLeft) p.delivery = `Enter an amount from £0.00 to ${formatPence(deliveryLeft)}.`;
      else pence = v;
    }
    const r = [...reason.trim()].length;
    if (r < 3 || r > 200) p.reason = 'Give the reason (3 to 200 characters): the credit note prints it.';
    else if (characterProblem('Reason', reason)) p.reason = characterProblem('Reason', reason)!;
    if (!p.delivery && lines.length === 0 && pence === 0) p.lines = 'Enter the units of at least one line, or a delivery amount, to credit.';
    setProblems(p);
    if (Object.keys(p).length === 0 && !busy) void send(lines, pence, reason.trim());
  }

  return (
    <form id="credit-form" className="form admin-inline-form" onSubmit={submit} noValidate aria-label={title}>
      <p>
        {dispatched
          ? 'A return credits the units the buyer sent back; tick Restock for the units fit to sell again.'
          : 'The units credited come off what will be sent and go back to stock. To take off everything left, cancel the order instead.'}{' '}
        The buyer is emailed the credit note.
      </p>
      <table className="basket-table">
        <caption className="sr-only">Units to credit per line</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Left to credit</th>
            <th scope="col">Units to credit</th>
            {dispatched && <th scope="col">Restock</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ l, i, left }) => (
            <tr key={l.sku}>
              <th scope="row">
                {l.name} <span className="muted">({l.sku})</span>
              </th>
              <td data-label="Left to credit">{left}</td>
              <td data-label="Units to credit">
                <label className="sr-only" htmlFor={`credit-units-${i}`}>
                  Units of {l.sku} to credit
                </label>
                <input
                  id={`credit-units-${i}`}
                  inputMode="numeric"
                  size={5}
                  value={units[i] ?? ''}
                  onChange={(e) => setUnits({ ...units, [i]: e.target.value })}
                  aria-invalid={!!problems[`units-${i}`]}
                  aria-describedby={problems[`units-${i}`] ? `credit-units-${i}-error` : undefined}
                />
                {problems[`units-${i}`] && (
                  <span id={`credit-units-${i}-error`} className="field-error">
                    {problems[`units-${i}`]}
                  </span>
                )}
              </td>
              {dispatched && (
                <td data-label="Restock">
                  <input
                    type="checkbox"
                    aria-label={`Restock the units of ${l.sku}`}
                    checked={!!restock[i]}
                    onChange={(e) => setRestock({ ...restock, [i]: e.target.checked })}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {problems.lines && (
        <p className="field-error" role="alert">
          {problems.lines}
        </p>
      )}
      {deliveryLeft > 0 && (
        <Field
          id="credit-delivery"
          label={`Delivery to credit, £ ex VAT (up to ${formatPence(deliveryLeft)})`}
          value={delivery}
          onChange={(e) => setDelivery(e.target.value)}
          error={problems.delivery}
          inputMode="decimal"
        />
      )}
      <Field
        id="credit-reason"
        label="Reason (the credit note and the buyer's email show it)"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={problems.reason}
        required
        maxLength={200}
      />
      <div className="order-actions">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? 'Issuing the credit note…' : 'Issue the credit note'}
        </button>
        <button type="button" className="link-button" onClick={close}>
          Not now
        </button>
      </div>
    </form>
  );
}
