'use client';
import Link from '@/components/app/link';
import { useRef, useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { removeAlert, requestAlerts } from '@/lib/alerts';
import { useAlerts } from './use-alerts';

/** The dashboard's "Stock alerts": the products the buyer waits for, each linked with a
 * Remove button (docs/alerts.md). What was removed, or why not, is said under the list. */
export function StockAlerts() {
  const alerts = useAlerts();
  const [busy, setBusy] = useState('');
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  // A removed alert's button goes with it: the focus goes to the heading, whose section
  // says what was removed.
  const heading = useRef<HTMLHeadingElement>(null);
  async function remove(sku: string, name: string) {
    if (busy) return;
    setBusy(sku);
    setSaid(null);
    try {
      await removeAlert(sku);
      setSaid({ ok: true, text: `Removed the alert for ${name}.` });
      heading.current?.focus();
    } catch (err) {
      setSaid({ ok: false, text: apiErrorText(err, 'The alert could not be removed. Try again.') });
    } finally {
      setBusy('');
    }
  }
  let body;
  if (alerts.status === 'idle' || (alerts.status === 'loading' && alerts.alerts.length === 0)) {
    body = <p role="status">Loading your stock alerts…</p>;
  } else if (alerts.status === 'error') {
    body = (
      <p className="form-error">
        Your stock alerts could not be read.{' '}
        <button type="button" className="link-button" onClick={() => requestAlerts(true)}>
          Try again
        </button>
      </p>
    );
  } else if (alerts.alerts.length === 0) {
    body = <p className="stock-alerts-empty">You have no stock alerts. On a product that is out of stock, choose “Email me when it is back”.</p>;
  } else {
    body = (
      <ul className="stock-alerts">
        {alerts.alerts.map((a) => (
          <li key={a.sku} data-sku={a.sku}>
            <Link href={a.path}>{a.name}</Link> <span className="muted">{a.sku}</span>
            {a.in_stock && <span className="muted"> (back in stock: your email is on its way)</span>}{' '}
            <button
              type="button"
              className="link-button"
              aria-disabled={busy === a.sku}
              aria-label={`Remove alert: ${a.name}`}
              onClick={() => void remove(a.sku, a.name)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section aria-labelledby="stock-alerts-heading">
      <h2 id="stock-alerts-heading" ref={heading} tabIndex={-1}>
        Stock alerts
      </h2>
      {body}
      <p className={said?.ok === false ? 'add-error' : 'add-ok'} role="status">
        {said?.text}
      </p>
    </section>
  );
}
