'use client';
import { useEffect, useState } from 'react';
import { emailVerified, resendVerificationEmail } from '@/lib/auth';
import { authFailureText } from '@/lib/auth-errors';

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
    emailVerified()
      .then((v) => {
        if (live && v !== null) setVerified(v);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [uid]);
  if (verified !== false) return null;

  async function resend() {
    setSent({ state: 'sending' });
    try {
      const to = await resendVerificationEmail();
      setSent({ state: 'sent', to: to ?? 'your email address' });
    } catch (err) {
      setSent({ state: 'failed', text: authFailureText(err) });
    }
  }

  return (
    <div className="email-verification">
      <p>
        <strong>Your email address is not verified.</strong> Paying on account needs a verified email address: open the link in the verification email we sent
        you.{' '}
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
