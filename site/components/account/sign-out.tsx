'use client';
import Link from '@/components/app/link';
import { useEffect, useState } from 'react';
import { signOut } from '@/lib/auth';
import { authFailureText } from '@/lib/auth-errors';
import { toaster } from '@/lib/toaster';

/** Signs the buyer out on arrival and says so with a toast. */
export function SignOut() {
  const [state, setState] = useState<'working' | 'done' | string>('working');
  useEffect(() => {
    (async () => {
      await signOut();
      toaster.show({ header: 'Account Signed Out', message: 'You have logged out', style: 'info' });
      setState('done');
    })().catch((err: unknown) => setState(authFailureText(err)));
  }, []);
  if (state === 'working') return <p role="status">Signing you out…</p>;
  if (state !== 'done')
    return (
      <p role="alert" className="form-error">
        {state}
      </p>
    );
  return (
    <p>
      You are signed out. <Link href="/account/login/">Sign in again</Link> or go to the <Link href="/">homepage</Link>.
    </p>
  );
}
