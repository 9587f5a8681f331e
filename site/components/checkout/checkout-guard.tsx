'use client';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';

/** Checkout steps need a signed-in buyer with something in the basket. */
export function CheckoutGuard({ children }: { children: ReactNode }) {
  const account = useAccount();
  if (account.status === 'loading' || (account.user !== 0 && (account.basket === 'loading' || account.basket === 'idle'))) return <p role="status">Loading…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (account.basket !== 'populated')
    return (
      <p className="form-error" role="alert">
        Your basket is empty, so there is nothing to check out. <Link href="/">Browse the ranges</Link>.
      </p>
    );
  return <>{children}</>;
}
