'use client';
import { useState, type FormEvent } from 'react';
import { saveProfile, type AccountState, type Profile } from '@/lib/account-store';
import { apiErrorText, fieldProblems } from '@/lib/api';
import { changeSignInEmail } from '@/lib/auth';
import { authFailureText } from '@/lib/auth-errors';
import { businessProblem, emailProblem, telephoneProblem } from '@/lib/validation';
import { Field } from './field';
import { ProfilePending } from './profile-pending';
import { SignedOutNotice } from './signed-out-notice';
import { useAccount } from './use-account';

type Status = { ok: boolean; text: string } | null;

/** A form's outcome: a status line when it worked, an alert when it did not. */
function FormStatus({ status }: { status: Status }) {
  if (!status) return null;
  return (
    <p className={status.ok ? 'form-ok' : 'form-error'} role={status.ok ? 'status' : 'alert'}>
      {status.text}
    </p>
  );
}

/** Update Your Details: business, telephone and marketing opt-in (once the profile has
 * arrived, so nothing typed is overwritten by it); and the sign-in email, which needs the
 * current password. */
export function UpdateDetails() {
  return <UpdateDetailsView account={useAccount()} />;
}

export function UpdateDetailsView({ account }: { account: AccountState }) {
  if (account.status === 'loading') return <p role="status">Loading your details…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  return (
    <>
      <h2>Your business</h2>
      {account.profile ? <DetailsForm profile={account.profile} email={account.user.email} /> : <ProfilePending status={account.profileStatus} />}
      <h2>Your sign-in email</h2>
      <p>
        You sign in as <strong>{account.user.email}</strong>.
      </p>
      <EmailForm profile={account.profile} />
    </>
  );
}

/** Business, telephone and opt-in, starting from the profile as it was when the form
 * appeared; a later change to the profile (after an email change) leaves what is typed. */
function DetailsForm({ profile, email }: { profile: Profile; email: string }) {
  const [business, setBusiness] = useState(profile.business);
  const [telephone, setTelephone] = useState(profile.telephone ?? '');
  const [optIn, setOptIn] = useState(profile.optInMarketing === 1);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);

  async function saveDetails(e: FormEvent) {
    e.preventDefault();
    setStatus(null);
    const problems: Record<string, string> = {};
    const b = businessProblem(business);
    if (b) problems.business = b;
    const t = telephoneProblem(telephone);
    if (t) problems.telephone = t;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      await saveProfile({ business: business.trim(), telephone: telephone.trim(), email, optInMarketing: optIn ? 1 : 0 });
      setStatus({ ok: true, text: 'Your details are saved.' });
    } catch (err) {
      setErrors(fieldProblems(err));
      setStatus({ ok: false, text: apiErrorText(err, 'Your details could not be saved. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={saveDetails} noValidate>
      <FormStatus status={status} />
      <Field
        id="business"
        label="Business name"
        autoComplete="organization"
        value={business}
        onChange={(e) => setBusiness(e.target.value)}
        error={errors.business}
      />
      <Field
        id="telephone"
        label="Telephone"
        type="tel"
        autoComplete="tel"
        value={telephone}
        onChange={(e) => setTelephone(e.target.value)}
        error={errors.telephone}
        hint="Optional. We call only about your orders."
      />
      <div className="check">
        <input id="optin" type="checkbox" checked={optIn} onChange={(e) => setOptIn(e.target.checked)} />
        <label htmlFor="optin">Email me new ranges and trade offers</label>
      </div>
      <button type="submit" className="button" disabled={busy}>
        Save details
      </button>
    </form>
  );
}

/** The sign-in email: re-authenticates with the current password, changes it in the
 * provider, then saves it to the profile. */
function EmailForm({ profile }: { profile: Profile | null }) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailErrors, setEmailErrors] = useState<Record<string, string>>({});
  const [emailStatus, setEmailStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);

  async function changeEmail(e: FormEvent) {
    e.preventDefault();
    setEmailStatus(null);
    const problems: Record<string, string> = {};
    const m = emailProblem(newEmail);
    if (m) problems.newEmail = m;
    if (!password) problems.password = 'Enter your current password to change your email.';
    setEmailErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    try {
      const email = await changeSignInEmail({ newEmail, password, profile });
      setPassword('');
      setNewEmail('');
      setEmailStatus({ ok: true, text: `Your sign-in email is now ${email}.` });
    } catch (err) {
      setEmailStatus({ ok: false, text: authFailureText(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={changeEmail} noValidate>
      <FormStatus status={emailStatus} />
      <Field
        id="newEmail"
        label="New email"
        type="email"
        autoComplete="email"
        value={newEmail}
        onChange={(e) => setNewEmail(e.target.value)}
        error={emailErrors.newEmail}
      />
      <Field
        id="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={emailErrors.password}
      />
      <button type="submit" className="button" disabled={busy}>
        Change email
      </button>
    </form>
  );
}
