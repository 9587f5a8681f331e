'use client';
import { useState } from 'react';

/** The offer beside Place Order's credit hold refusal (docs/back-office.md "Credit hold"):
 * the sentence said why; one press switches this order's billing to pro-forma and places it.
 * switchAndPlace does both; a failure is said by the step's own refusal. */
export function CreditHoldOffer({ switchAndPlace }: { switchAndPlace: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <p className="nudge credit-hold-offer">
      Pay this order pro-forma instead: we send the goods once your bank transfer arrives.{' '}
      <button
        type="button"
        className="button"
        aria-disabled={busy}
        onClick={() => {
          if (busy) return;
          setBusy(true);
          void switchAndPlace().finally(() => setBusy(false));
        }}
      >
        {busy ? 'Placing your order…' : 'Pay pro-forma and place the order'}
      </button>
    </p>
  );
}
