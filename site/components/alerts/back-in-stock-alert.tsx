'use client';
import { useEffect, useRef, useState } from 'react';
import { useAccount } from '@/components/account/use-account';
import { useOwnPrice } from '@/components/basket/price';
import { apiErrorText } from '@/lib/api';
import { askAlert, hasAlert, removeAlert, requestAlerts } from '@/lib/alerts';
import { preOrderOpen, type ForwardDates } from '@/lib/forward';
import { useAlerts } from './use-alerts';

/** A product page's back-in-stock alert (docs/alerts.md), shown while the product is out
 * of stock (less than a pack: the buyer's live availability once it has arrived, the
 * build's before): signed in, "Email me when it is back", then "We will email you…" with
 * "Remove alert"; signed out, a link to sign in. A forward product open for pre-order
 * (forward) sells beyond its stock: it has no alert. */
export function BackInStockAlert({ sku, name, inStock, forward }: { sku: string; name: string; inStock: boolean; forward?: ForwardDates | null }) {
  const account = useAccount();
  const live = useOwnPrice(sku)?.availability;
  const out = live ? live.status === 'out' : !inStock && !preOrderOpen(forward);
  if (!out) return null;
  // Signed out, ProductActions draws the sign-in note (catalogue/signed-out.tsx).
  if (account.user === 0) return null;
  return <AlertControls sku={sku} name={name} />;
}

/** The signed-in buyer's alert for one product: the state from their list of alerts. */
function AlertControls({ sku, name }: { sku: string; name: string }) {
  const alerts = useAlerts();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  // The button the buyer pressed is replaced by the other one: the focus follows it.
  const refocus = useRef(false);
  const waiting = hasAlert(alerts, sku);
  useEffect(() => {
    if (refocus.current) {
      refocus.current = false;
      button.current?.focus();
    }
  }, [waiting]);
  if (alerts.status === 'idle' || alerts.status === 'loading') {
    return (
      <p className="stock-alert" role="status">
        Checking your stock alerts…
      </p>
    );
  }
  if (alerts.status === 'error') {
    return (
      <p className="stock-alert">
        Your stock alerts could not be read.{' '}
        <button type="button" className="link-button" onClick={() => requestAlerts(true)}>
          Try again
        </button>
      </p>
    );
  }
  async function change(ask: boolean) {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      refocus.current = true;
      await (ask ? askAlert(sku) : removeAlert(sku));
    } catch (err) {
      refocus.current = false;
      setError(apiErrorText(err, ask ? 'Your alert could not be saved. Try again.' : 'Your alert could not be removed. Try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="stock-alert" data-sku={sku}>
      {waiting ? (
        <p>
          We will email you when it is back in stock.{' '}
          <button
            ref={button}
            type="button"
            className="link-button"
            aria-disabled={busy}
            aria-label={`Remove alert: ${name}`}
            onClick={() => void change(false)}
          >
            Remove alert
          </button>
        </p>
      ) : (
        <button ref={button} type="button" className="button" aria-disabled={busy} onClick={() => void change(true)}>
          {busy ? 'Saving…' : 'Email me when it is back'}
        </button>
      )}
      <p className="add-error" role="alert">
        {error}
      </p>
    </div>
  );
}
