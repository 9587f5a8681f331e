'use client';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { loadBasket } from '@/lib/account-store';

/** Checkout steps need a signed-in buyer with something in the basket. A basket that could
 * not be loaded is said so, with Try again (it is not an empty basket). */
export function CheckoutGuard({ children }: { children: ReactNode }) {
  const account = useAccount();
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
