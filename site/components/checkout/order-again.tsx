'use client';
import { useId, useState, type FormEvent } from 'react';
import { apiErrorText } from '@/lib/api';
import { reorder, type Order, type ReorderAnswer } from '@/lib/checkout';
import { ReorderResult } from './reorder-result';

/** Order again for chosen lines of a past order: a tick box per line and "Add chosen to
 * basket", which puts back only the lines ticked (the whole order is the Reorder button's). */
export function OrderAgain({ order }: { order: Order }) {
  const id = useId();
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [result, setResult] = useState<ReorderAnswer | null>(null);
  const tick = (sku: string, on: boolean) => {
    setProblem('');
    setChosen((have) => (on ? [...have.filter((s) => s !== sku), sku] : have.filter((s) => s !== sku)));
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setResult(null);
    if (chosen.length === 0) {
      setProblem('Tick the lines you want to order again first.');
      return;
    }
    setProblem('');
    setBusy(true);
    try {
      // In the order's own order, whatever order they were ticked in.
      setResult(
        await reorder(
          order.id,
          order.lines.map((l) => l.sku).filter((s) => chosen.includes(s)),
        ),
      );
      setChosen([]);
    } catch (err) {
      setProblem(apiErrorText(err, 'The chosen lines could not be added. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section id="order-again" className="order-again no-print" aria-labelledby="order-again-title">
      <h2 id="order-again-title">Order again</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <fieldset className="field">
          <legend>Choose the lines to put back in your basket</legend>
          <ul className="order-again-lines">
            {order.lines.map((l) => (
              <li key={l.sku} className="check">
                <input id={`${id}-${l.sku}`} type="checkbox" checked={chosen.includes(l.sku)} onChange={(e) => tick(l.sku, e.target.checked)} />
                <label htmlFor={`${id}-${l.sku}`}>
                  {l.name}{' '}
                  <span className="muted">
                    ({l.sku}, {l.quantity} units)
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <p className="order-again-actions">
          <button type="submit" className="button" disabled={busy} aria-busy={busy}>
            {busy ? 'Adding…' : 'Add chosen to basket'}
          </button>
        </p>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
      </form>
      <div role="status">{result && <ReorderResult result={result} />}</div>
    </section>
  );
}
