'use client';
import { useState, type FormEvent } from 'react';
import { sendPasswordReset } from '@/lib/auth';
import { toaster } from '@/lib/toaster';
import { emailProblem } from '@/lib/validation';
import { Field } from './field';

/** Sends the reset email with a link back to sign-in. It always says the email was
 * sent and swallows errors, so nobody can probe which emails have accounts. */
export function PasswordResetForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = emailProblem(email);
    setError(problem ?? '');
    if (problem) return;
    try {
      await sendPasswordReset(email);
    } catch {
      /* swallowed on purpose */
    }
    toaster.show({ header: 'Password Reset Sent to Email', message: 'If there is an account for that email, a reset link is on its way.', style: 'success' });
    setSent(true);
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      {sent && (
        <p className="form-ok" role="status">
          Password Reset Sent to Email. Follow the link in it to choose a new password, then sign in.
        </p>
      )}
      <Field id="email" label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error} required />
      <button type="submit" className="button">
        Send reset link
      </button>
    </form>
  );
}
