'use client';
import { useId, useState } from 'react';
import { ApiError } from '@/lib/api';
import { orderByText, reduceForwardLine, type ForwardLine, type ForwardOrder } from '@/lib/forward-orders';

/** Reduce (to the packs typed) and Cancel line (after a confirm) for one forward line
 * until its order-by date; the server's sentence when it refuses. */
export function ForwardLineChange({ orderId, line, changed }: { orderId: string; line: ForwardLine; changed: (o: ForwardOrder) => void }) {
  const id = useId();
  const [packs, setPacks] = useState(String(line.open_packs));
  const [busy, setBusy] = useState<'' | 'reduce' | 'cancel'>('');
  const [error, setError] = useState('');

  async function send(to: number, what: 'reduce' | 'cancel') {
    setBusy(what);
    setError('');
    try {
      changed(await reduceForwardLine(orderId, line.sku, to));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The change could not be made. Please try again.');
    } finally {
      setBusy('');
    }
  }
  function reduce() {
    const n = Number(packs);
    if (!/^\d+$/.test(packs.trim()) || n > line.open_packs) {
      setError(`Give the packs to keep, from 0 to ${line.open_packs}: you can only reduce a forward line.`);
      return;
    }
    if (n === line.open_packs) {
      setError('That is what the line holds already.');
      return;
    }
    void send(n, 'reduce');
  }
  function cancel() {
    if (!window.confirm(`Cancel the forward line of ${line.name}? It cannot be ordered again on this order.`)) return;
    void send(0, 'cancel');
  }
  return (
    <div className="forward-change">
      <label htmlFor={`${id}-packs`}>Packs to come</label>{' '}
      <input
        id={`${id}-packs`}
        type="number"
        inputMode="numeric"
        min={0}
        max={line.open_packs}
        value={packs}
        onChange={(e) => setPacks(e.target.value)}
        aria-describedby={`${id}-by`}
        aria-invalid={error !== '' || undefined}
        disabled={busy !== ''}
        size={4}
      />{' '}
      <button type="button" className="button" onClick={reduce} aria-disabled={busy !== ''} aria-busy={busy === 'reduce'} disabled={busy !== ''}>
        {busy === 'reduce' ? 'Reducing…' : 'Reduce'}
      </button>{' '}
      <button type="button" className="button" onClick={cancel} aria-disabled={busy !== ''} aria-busy={busy === 'cancel'} disabled={busy !== ''}>
        {busy === 'cancel' ? 'Cancelling…' : 'Cancel line'}
      </button>
      <p id={`${id}-by`} className="muted">
        {orderByText(line)}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
