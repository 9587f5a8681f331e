'use client';
import { useEffect, useState } from 'react';
import { authErrorMessage } from '@/lib/auth-errors';
import { authSDK, getFirebaseAuth } from '@/lib/firebase';

type Sent = { state: 'idle' } | { state: 'sending' } | { state: 'sent'; to: string } | { state: 'failed'; text: string };

/** The dashboard's notice for a sign-in whose email address is not verified (paying on
 * account needs a verified one: docs/token-verification.md, "Sign-in facts"), with a
 * button that sends the verification email again. It asks the sign-in service for the
 * user's current state first, so an address verified in another tab shows no notice, and
 * refreshes the ID token then so the API sees email_verified at once. */
export function EmailVerification({ uid }: { uid: string }) {
  const [verified, setVerified] = useState<boolean | null>(null);
  const [sent, setSent] = useState<Sent>({ state: 'idle' });
  useEffect(() => {
    let live = true;
    (async () => {
      const [auth, sdk] = await Promise.all([getFirebaseAuth(), authSDK()]);
      const user = auth.currentUser;
      if (!user) return;
      await sdk.reload(user).catch(() => undefined); // offline: what the SDK holds
      if (user.emailVerified && (await user.getIdTokenResult()).claims.email_verified !== true) await user.getIdToken(true);
      if (live) setVerified(user.emailVerified);
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [uid]);
  if (verified !== false) return null;

  async function resend() {
    setSent({ state: 'sending' });
    try {
      const [auth, sdk] = await Promise.all([getFirebaseAuth(), authSDK()]);
      const user = auth.currentUser;
      if (!user) throw new Error('signed out');
      await sdk.sendEmailVerification(user);
      setSent({ state: 'sent', to: user.email ?? 'your email address' });
    } catch (err) {
      setSent({ state: 'failed', text: authErrorMessage(err) });
    }
  }

  return (
    <div className="email-verification">
      <p>
        <strong>Your email address is not verified.</strong> Paying on account needs a verified email address: open the link in the
        verification email we sent you.{' '}
        <button type="button" className="link-button" onClick={() => void resend()} aria-disabled={sent.state === 'sending'} disabled={sent.state === 'sent'}>
          {sent.state === 'sending' ? 'Sending…' : 'Resend the verification email'}
        </button>
      </p>
      {sent.state === 'sent' && (
        <p className="form-ok" role="status">
          We have sent a verification email to {sent.to}. Open its link, then reload this page.
        </p>
      )}
      {sent.state === 'failed' && (
        <p className="form-error" role="alert">
          The verification email could not be sent. {sent.text}
        </p>
      )}
    </div>
  );
}
