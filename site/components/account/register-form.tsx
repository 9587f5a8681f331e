'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { passwordPolicy, register } from '@/lib/auth';
import { authFailureText } from '@/lib/auth-errors';
import { businessProblem, emailProblem, passwordProblem } from '@/lib/validation';
import { Field } from './field';

/** Sign up with email and password, then set the display name (and profile) to the
 * business name, then go to the dashboard. */
export function RegisterForm() {
  const router = useRouter();
  const [business, setBusiness] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError('');
    const problems: Record<string, string> = {};
    const b = businessProblem(business);
    if (b) problems.business = b;
    const m = emailProblem(email);
    if (m) problems.email = m;
    setBusy(true);
    const p = passwordProblem(password, await passwordPolicy());
    if (p) problems.password = p;
    setErrors(problems);
    if (Object.keys(problems).length) {
      setBusy(false);
      return;
    }
    try {
      await register({ business, email, password });
      router.push('/account/dashboard/');
    } catch (err) {
      setFormError(authFailureText(err));
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-describedby={formError ? 'register-error' : undefined}>
      {formError && (
        <p id="register-error" className="form-error" role="alert">
          {formError}
        </p>
      )}
      <Field
        id="business"
        label="Business name"
        autoComplete="organization"
        value={business}
        onChange={(e) => setBusiness(e.target.value)}
        error={errors.business}
        required
      />
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
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
        hint="At least 6 characters."
        required
      />
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Creating your account…' : 'Register'}
      </button>
    </form>
  );
}
