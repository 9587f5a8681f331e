'use client';
import Link from '@/components/app/link';
import { useState, type ReactNode } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { loadBasket } from '@/lib/account-store';

/** Checkout steps need a signed-in buyer with something in the basket. A basket that could
 * not be loaded is said so, with Try again (it is not an empty basket). Once a step is
 * shown it stays while the basket reloads or empties under it (an order placed, here or
 * elsewhere): the step says what happened, and what the buyer typed is not lost. */
export function CheckoutGuard({ children }: { children: ReactNode }) {
  const account = useAccount();
  /** The buyer the step was shown to. */
  const [shownTo, setShownTo] = useState('');
  const uid = account.user === 0 ? '' : account.user.uid;
  if (uid && account.basket === 'populated' && shownTo !== uid) setShownTo(uid);
  if (uid && (shownTo === uid || account.basket === 'populated')) return <>{children}</>;
  if (account.status === 'loading' || (account.user !== 0 && (account.basket === 'loading' || account.basket === 'idle'))) return <p role="status">Loading…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (account.basket === 'error') return <LoadFailed what="Your basket could not be loaded." retry={() => void loadBasket()} />;
  if (account.basket !== 'populated')
    return (
      <p className="form-error" role="alert">
        Your basket is empty, so there is nothing to check out. <Link href="/">Browse the ranges</Link>.
      </p>
    );
  return <>{children}</>;
}
