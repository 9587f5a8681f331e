'use client';
import { useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { payOrder } from '@/lib/checkout';

/** Pay now: asks the server to start a card payment of what the order still owes and takes
 * the buyer to the payment page it answers. A refusal (paid meanwhile, cancelled, not
 * invoiced yet) is the server's sentence beside the button. */
export function PayNow({ orderId }: { orderId: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function pay() {
    setBusy(true);
    setError('');
    try {
      const { url } = await payOrder(orderId);
      window.location.assign(url);
    } catch (err) {
      setError(apiErrorText(err, 'We could not reach the shop to start the payment: press Pay now again.'));
      setBusy(false);
    }
  }
  return (
    <>
      <button type="button" className="button pay-now" disabled={busy} onClick={() => void pay()}>
        {busy ? 'Taking you to the payment page…' : 'Pay now'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
