'use client';
import { useRef, useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { adminOrderAction, type ActionInput, type AdminOrder, type OrderWithAudit } from '@/lib/admin';
import { ACTION_DONE, orderActions, type OrderAction } from '@/lib/order-status';
import { characterProblem } from '@/lib/validation';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** The moves allowed for the order now, each sending the version the page shows: Confirm,
 * Mark paid and Complete at a press; Dispatch with its carrier and tracking reference;
 * Cancel with an optional reason, after a second press. A 409 says the server's sentence
 * and offers Reload. */
export function OrderActions({ order, done, reload }: { order: AdminOrder; done: (a: OrderWithAudit) => void; reload: () => void }) {
  const { busy, problems, setProblems, outcome, submit, reset } = useAdminSubmit();
  const [open, setOpen] = useState<'dispatch' | 'cancel' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const choices = orderActions(order);

  async function act(action: OrderAction, extra: Omit<ActionInput, 'version'> = {}) {
    const ok = await submit(async () => {
      done(await adminOrderAction(order.id, action, { version: order.version, ...extra }));
      return `Order ${order.id} ${ACTION_DONE[action]}.`;
    }, `Order ${order.id} could not be ${ACTION_DONE[action]}.`);
    if (ok) {
      setOpen(null);
      // The button pressed may be gone: the focus goes to the actions' heading, under which
      // the outcome is said.
      heading.current?.focus();
    }
  }

  const again = () => {
    reset();
    setOpen(null);
    reload();
  };

  return (
    <section className="admin-actions" aria-labelledby="order-actions">
      <h2 id="order-actions" ref={heading} tabIndex={-1}>
        Actions
      </h2>
      <FormOutcome outcome={outcome} reload={again} />
      {choices.length === 0 ? (
        <p className="muted">Nothing more can be done with this order.</p>
      ) : (
        <div className="order-actions">
          {choices.map((c) => {
            if (c.action === 'dispatch' || c.action === 'cancel') {
              const which = c.action;
              return (
                <button
                  key={c.action}
                  type="button"
                  className="button"
                  disabled={!!c.blocked}
                  aria-expanded={open === which}
                  aria-controls={`${which}-form`}
                  aria-describedby={c.blocked ? 'dispatch-blocked' : undefined}
                  onClick={() => {
                    setProblems({});
                    setOpen(open === which ? null : which);
                  }}
                >
                  {c.label}…
                </button>
              );
            }
            return (
              <button key={c.action} type="button" className="button" aria-disabled={busy} onClick={() => !busy && void act(c.action)}>
                {c.label}
              </button>
            );
          })}
        </div>
      )}
      {choices.find((c) => c.blocked) && (
        <p id="dispatch-blocked" className="muted">
          {choices.find((c) => c.blocked)!.blocked}
        </p>
      )}
      {open === 'dispatch' && (
        <DispatchForm
          busy={busy}
          problems={problems}
          setProblems={setProblems}
          send={(carrier, tracking) => act('dispatch', { carrier, tracking })}
          close={() => setOpen(null)}
        />
      )}
      {open === 'cancel' && (
        <CancelForm id={order.id} busy={busy} problems={problems} send={(reason) => act('cancel', reason ? { reason } : {})} close={() => setOpen(null)} />
      )}
    </section>
  );
}

type FormProps = { busy: boolean; problems: Record<string, string>; close: () => void };

/** Carrier and tracking reference, both required. */
function DispatchForm({
  busy,
  problems,
  setProblems,
  send,
  close,
}: FormProps & { setProblems: (p: Record<string, string>) => void; send: (carrier: string, tracking: string) => Promise<void> }) {
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    const p: Record<string, string> = {};
    const c = [...carrier.trim()].length;
    const t = [...tracking.trim()].length;
    if (c < 2 || c > 60) p.carrier = 'Enter the carrier (2 to 60 characters), such as Royal Mail or DPD.';
    else if (characterProblem('Carrier', carrier)) p.carrier = characterProblem('Carrier', carrier)!;
    if (t < 3 || t > 60) p.tracking = 'Enter the tracking reference the carrier gave (3 to 60 characters).';
    else if (characterProblem('Tracking reference', tracking)) p.tracking = characterProblem('Tracking reference', tracking)!;
    setProblems(p);
    if (Object.keys(p).length === 0) void send(carrier.trim(), tracking.trim());
  }
  return (
    <form id="dispatch-form" className="form admin-inline-form" onSubmit={submit} noValidate aria-label="Dispatch">
      <Field
        id="carrier"
        label="Carrier"
        value={carrier}
        onChange={(e) => setCarrier(e.target.value)}
        error={problems.carrier}
        required
        maxLength={60}
        autoFocus
      />
      <Field
        id="tracking"
        label="Tracking reference"
        value={tracking}
        onChange={(e) => setTracking(e.target.value)}
        error={problems.tracking}
        required
        maxLength={60}
      />
      <div className="order-actions">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? 'Dispatching…' : 'Dispatch order'}
        </button>
        <button type="button" className="link-button" onClick={close}>
          Not now
        </button>
      </div>
    </form>
  );
}

/** The second press of Cancel, with an optional reason the buyer is told. */
function CancelForm({ id, busy, problems, send, close }: FormProps & { id: string; send: (reason: string) => Promise<void> }) {
  const [reason, setReason] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!busy) void send(reason.trim());
  }
  return (
    <form id="cancel-form" className="form admin-inline-form" onSubmit={submit} noValidate aria-label="Cancel the order">
      <p>Cancelling gives the stock, the coupon&apos;s use and any credit back, and tells the buyer. It cannot be undone.</p>
      <Field
        id="cancel-reason"
        label="Reason (optional, the buyer sees it)"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={problems.reason}
        maxLength={200}
        autoFocus
      />
      <div className="order-actions">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? 'Cancelling…' : `Yes, cancel order ${id}`}
        </button>
        <button type="button" className="link-button" onClick={close}>
          Keep the order
        </button>
      </div>
    </form>
  );
}
