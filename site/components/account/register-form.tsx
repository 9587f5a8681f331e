'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { saveProfile, signedIn } from '@/lib/account-store';
import { authErrorMessage } from '@/lib/auth-errors';
import { authSDK, getFirebaseAuth } from '@/lib/firebase';
import { businessProblem, emailProblem, passwordProblem, type PasswordPolicy } from '@/lib/validation';
import { Field } from './field';

/** Reads the provider's password policy; null when it gives none (minimum length 6). */
async function passwordPolicy(): Promise<PasswordPolicy | null> {
  try {
    const [auth, sdk] = await Promise.all([getFirebaseAuth(), authSDK()]);
    const status = await sdk.validatePassword(auth, '');
    const min = status.passwordPolicy.customStrengthOptions.minPasswordLength;
    return min ? { minLength: min } : null;
  } catch {
    return null;
  }
}

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
      const [auth, sdk] = await Promise.all([getFirebaseAuth(), authSDK()]);
      const { user } = await sdk.createUserWithEmailAndPassword(auth, email.trim().toLowerCase(), password);
      await sdk.updateProfile(user, { displayName: business.trim() });
      await user.getIdToken(true);
      // The sign-in listener may still be waiting for an idle moment: hand it the user now.
      await signedIn({ uid: user.uid, email: user.email ?? '', displayName: business.trim() }, () => user.getIdToken());
      await saveProfile({ business: business.trim(), telephone: '', email: user.email ?? '', optInMarketing: 0 });
      router.push('/account/dashboard/');
    } catch (err) {
      setFormError(authErrorMessage(err));
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
      <Field id="business" label="Business name" autoComplete="organization" value={business} onChange={(e) => setBusiness(e.target.value)} error={errors.business} required />
      <Field id="email" label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} required />
      <Field id="password" label="Password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} hint="At least 6 characters." required />
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Creating your account…' : 'Register'}
      </button>
    </form>
  );
}
