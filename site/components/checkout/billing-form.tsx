'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { LoadFailed } from '@/components/errors/load-failed';
import { apiErrorText, fieldProblems } from '@/lib/api';
import { addressProblems, checkoutInfo, emptyAddress, loadDraft, saveBilling, saveDraft, type Billing, type CheckoutInfo } from '@/lib/checkout';
import { AddressFields } from './address-fields';
import { MinimumNotice } from './minimum-notice';

const blank = (): Billing => ({ company: '', contact: '', address: emptyAddress(), vat_number: '', po_ref: '', payment_method: 'proforma' });

/** Billing: company, contact, address, optional VAT number and PO reference, and how to
 * pay (on account where approved for credit, pro-forma, or by card, open to every buyer). Saved to the profile for next time; a refresh keeps what was typed. */
export function BillingForm() {
  const router = useRouter();
  const [b, setB] = useState<Billing>(blank);
  const [info, setInfo] = useState<CheckoutInfo | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    checkoutInfo()
      .then((i) => {
        if (!live) return;
        setB(loadDraft<Billing>('billing') ?? i.billing ?? blank());
        setInfo(i);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [attempt]);

  const update = (next: Billing) => {
    setB(next);
    saveDraft('billing', next);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const p: Record<string, string> = {};
    if (b.company.trim().length < 2) p.company = 'Enter the company name.';
    if (b.contact.trim().length < 2) p.contact = 'Enter the name of the person to contact.';
    Object.assign(p, addressProblems(b.address, 'address.'));
    setErrors(p);
    if (Object.keys(p).length) return;
    setBusy(true);
    setFormError('');
    try {
      await saveBilling(b);
      router.push('/checkout/delivery/');
    } catch (err) {
      // Field problems are shown beside their fields; the line above the form only points at them.
      const problems = fieldProblems(err);
      setErrors(problems);
      setFormError(
        Object.keys(problems).length
          ? 'Please correct the details marked below.'
          : apiErrorText(err, 'Your billing details could not be saved. Please try again.'),
      );
      setBusy(false);
    }
  }

  if (failed) {
    return (
      <LoadFailed
        what="Your saved details could not be loaded."
        retry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  if (!info) return <p role="status">Loading your details…</p>;
  const approved = info.approved_for_credit;
  return (
    <form className="form" onSubmit={submit} noValidate>
      <MinimumNotice minimum={info.minimum_order} short={info.below_minimum_by} />
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <Field
        id="company"
        label="Company name"
        autoComplete="organization"
        value={b.company}
        onChange={(e) => update({ ...b, company: e.target.value })}
        error={errors.company}
      />
      <Field
        id="contact"
        label="Contact name"
        autoComplete="name"
        value={b.contact}
        onChange={(e) => update({ ...b, contact: e.target.value })}
        error={errors.contact}
      />
      <AddressFields id="billing" value={b.address} onChange={(address) => update({ ...b, address })} errors={errors} prefix="address." />
      <Field
        id="vat"
        label="VAT number (optional)"
        value={b.vat_number}
        onChange={(e) => update({ ...b, vat_number: e.target.value })}
        error={errors.vat_number}
        hint="For example GB123456789."
      />
      <Field id="po" label="Your PO reference (optional)" value={b.po_ref} onChange={(e) => update({ ...b, po_ref: e.target.value })} error={errors.po_ref} />
      <fieldset className="field">
        <legend>How will you pay?</legend>
        <div className="check">
          <input
            id="pay-account"
            type="radio"
            name="pay"
            checked={b.payment_method === 'account'}
            disabled={!approved}
            onChange={() => update({ ...b, payment_method: 'account' })}
          />
          <label htmlFor="pay-account">Pay on account (30 days){!approved && ' — needs an account approved for credit'}</label>
        </div>
        <div className="check">
          <input
            id="pay-proforma"
            type="radio"
            name="pay"
            checked={b.payment_method === 'proforma'}
            onChange={() => update({ ...b, payment_method: 'proforma' })}
          />
          <label htmlFor="pay-proforma">Pro-forma: pay by bank transfer before we dispatch</label>
        </div>
        <div className="check">
          <input
            id="pay-card"
            type="radio"
            name="pay"
            checked={b.payment_method === 'card'}
            aria-describedby="pay-card-hint"
            onChange={() => update({ ...b, payment_method: 'card' })}
          />
          <label htmlFor="pay-card">Pay by card</label>
        </div>
        <p id="pay-card-hint" className="muted pay-card-hint">
          Pay securely on Stripe&apos;s page after you place the order; the goods go as soon as it is paid.
        </p>
        {errors.payment_method && <p className="field-error">{errors.payment_method}</p>}
      </fieldset>
      <button type="submit" className="button" disabled={busy}>
        Continue to delivery
      </button>
    </form>
  );
}
