'use client';
import { useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { adminCouponSave, type Coupon, type CouponWithAudit } from '@/lib/admin';
import { checkCouponForm, couponForm, type CouponForm } from '@/lib/admin-forms';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** The coupon form: a new coupon (coupon null) or one to edit (its code fixed). Amounts in
 * pounds, validity as London days (the last day included), limits 0 or empty for none. */
export function CouponEditor({
  coupon,
  saved,
  close,
  reload,
}: {
  coupon: Coupon | null;
  saved: (r: CouponWithAudit) => void;
  close: () => void;
  reload: () => void;
}) {
  const [form, setForm] = useState<CouponForm>(() => couponForm(coupon ?? undefined));
  const { busy, problems, setProblems, outcome, submit } = useAdminSubmit();
  const set = (patch: Partial<CouponForm>) => setForm((f) => ({ ...f, ...patch }));
  const creating = coupon === null;

  function save(e: FormEvent) {
    e.preventDefault();
    const r = checkCouponForm(form, coupon ?? undefined);
    if (!r.ok) {
      setProblems(r.problems);
      return;
    }
    void submit(
      async () => {
        saved(await adminCouponSave(r.value, creating));
        return '';
      },
      creating ? 'The coupon could not be created.' : `Coupon ${coupon.id} could not be saved.`,
    );
  }

  return (
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby="coupon-form">
      <h2 id="coupon-form">{creating ? 'New coupon' : `Edit coupon ${coupon.id}`}</h2>
      {/* A new coupon's 409 is its code taken: the form stays, to choose another. */}
      <FormOutcome outcome={outcome?.kind === 'done' ? null : outcome} {...(!creating && { reload })} />
      <Field
        id="coupon-id"
        label="Code"
        hint="3 to 20 capital letters and digits; buyers type it at the basket."
        value={form.id}
        onChange={(e) => set({ id: e.target.value.toUpperCase() })}
        readOnly={!creating}
        autoCapitalize="characters"
        maxLength={20}
        required
        error={problems.id}
        autoFocus={creating}
      />
      <Field
        id="coupon-description"
        label="Description"
        hint="As buyers see it, such as “£5 off orders of £50 or more”."
        value={form.description}
        onChange={(e) => set({ description: e.target.value })}
        maxLength={200}
        required
        error={problems.description}
        autoFocus={!creating}
      />
      <fieldset className="field">
        <legend>Takes off</legend>
        <div className="check">
          <input id="coupon-kind-percent" type="radio" name="coupon-kind" checked={form.kind === 'percent'} onChange={() => set({ kind: 'percent' })} />
          <label htmlFor="coupon-kind-percent">A percentage of the goods</label>
        </div>
        <div className="check">
          <input id="coupon-kind-fixed" type="radio" name="coupon-kind" checked={form.kind === 'fixed'} onChange={() => set({ kind: 'fixed' })} />
          <label htmlFor="coupon-kind-fixed">An amount in pounds</label>
        </div>
      </fieldset>
      {form.kind === 'percent' ? (
        <Field
          id="coupon-percent"
          label="Percent off"
          hint="A whole number from 1 to 100."
          inputMode="numeric"
          value={form.percent}
          onChange={(e) => set({ percent: e.target.value })}
          required
          error={problems.percent}
        />
      ) : (
        <Field
          id="coupon-amount"
          label="Amount off in pounds"
          hint="Never more than the goods."
          inputMode="decimal"
          value={form.amount}
          onChange={(e) => set({ amount: e.target.value })}
          required
          error={problems.amount}
        />
      )}
      <Field
        id="coupon-min-spend"
        label="Minimum spend in pounds (optional)"
        hint="Goods ex VAT after discounts."
        inputMode="decimal"
        value={form.minSpend}
        onChange={(e) => set({ minSpend: e.target.value })}
        error={problems.min_spend}
      />
      <Field
        id="coupon-valid-from"
        label="First day valid (optional)"
        type="date"
        value={form.validFrom}
        onChange={(e) => set({ validFrom: e.target.value })}
        error={problems.valid_from}
      />
      <Field
        id="coupon-valid-to"
        label="Last day valid (optional)"
        hint="The coupon ends at midnight after this day, UK time."
        type="date"
        value={form.validTo}
        onChange={(e) => set({ validTo: e.target.value })}
        error={problems.valid_to}
      />
      <Field
        id="coupon-usage-limit"
        label="Uses in all (optional)"
        hint="Empty or 0: no limit."
        inputMode="numeric"
        value={form.usageLimit}
        onChange={(e) => set({ usageLimit: e.target.value })}
        error={problems.usage_limit}
      />
      <Field
        id="coupon-per-account"
        label="Uses per account (optional)"
        hint="Empty or 0: no limit."
        inputMode="numeric"
        value={form.perAccountLimit}
        onChange={(e) => set({ perAccountLimit: e.target.value })}
        error={problems.per_account_limit}
      />
      {coupon && coupon.account_uid && <p className="muted">Only for the account {coupon.account_uid}.</p>}
      <div className="order-actions">
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? 'Saving…' : creating ? 'Create coupon' : 'Save coupon'}
        </button>
        <button type="button" className="link-button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
