'use client';
import Link from '@/components/app/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { readArchUrl } from '@/lib/archurl';
import { signIn } from '@/lib/auth';
import { authFailureText } from '@/lib/auth-errors';
import { emailProblem } from '@/lib/validation';
import { Field } from './field';

/** Sign in with email and password, then back to the page visited before (archUrl),
 * else the dashboard. */
export function LoginForm({ shopName }: { shopName: string }) {
  const router = useRouter();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError('');
    const problems: Record<string, string> = {};
    const m = emailProblem(email);
    if (m) problems.email = m;
    if (!password) problems.password = 'Enter your password.';
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await signIn(email, password);
      router.push(readArchUrl(document.cookie, location.origin) ?? '/account/dashboard/');
    } catch (err) {
      setFormError(authFailureText(err));
      setBusy(false);
    }
  }

  return (
    <>
      <form className="form" onSubmit={submit} noValidate>
        {formError && (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          required
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          required
        />
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign In'}
        </button>
      </form>
      <p>
        <Link href="/account/password_reset/">Forgotten your password?</Link> · New to {shopName}? <Link href="/account/register/">Register</Link>
      </p>
    </>
  );
}
