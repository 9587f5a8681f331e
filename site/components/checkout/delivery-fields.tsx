'use client';
import type { Address, DeliveryOption } from '@/lib/checkout';
import { formatPence } from '@/lib/format';
import { AddressFields } from './address-fields';
import type { DeliveryDraft } from './use-delivery-checkout';

/** The delivery step's choices: deliver to the billing address or another (with its
 * fields), the delivery option with the server's charge for each, and an optional note. */
export function DeliveryFields({
  draft: d,
  onChange,
  billingAddress,
  options,
  errors,
}: {
  draft: DeliveryDraft;
  onChange: (next: DeliveryDraft) => void;
  billingAddress: Address;
  options: DeliveryOption[];
  errors: Record<string, string>;
}) {
  return (
    <>
      <fieldset className="field">
        <legend>Deliver to</legend>
        <div className="check">
          <input id="same" type="radio" name="to" checked={d.sameAsBilling} onChange={() => onChange({ ...d, sameAsBilling: true })} />
          <label htmlFor="same">
            The billing address: {billingAddress.line1}, {billingAddress.town} {billingAddress.postcode}
          </label>
        </div>
        <div className="check">
          <input id="other" type="radio" name="to" checked={!d.sameAsBilling} onChange={() => onChange({ ...d, sameAsBilling: false })} />
          <label htmlFor="other">Another address</label>
        </div>
      </fieldset>
      {!d.sameAsBilling && (
        <AddressFields id="delivery" value={d.address} onChange={(address) => onChange({ ...d, address })} errors={errors} prefix="deliver_to." />
      )}
      <fieldset className="field">
        <legend>Delivery</legend>
        {options.map((o) => (
          <div className="check" key={o.id}>
            <input id={`opt-${o.id}`} type="radio" name="option" checked={d.option === o.id} onChange={() => onChange({ ...d, option: o.id })} />
            <label htmlFor={`opt-${o.id}`}>
              {o.name}: {o.free ? 'free' : `${formatPence(o.charge_ex_vat)} ex VAT`}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="note">Delivery note (optional)</label>
        <textarea
          id="note"
          maxLength={300}
          value={d.note}
          onChange={(e) => onChange({ ...d, note: e.target.value })}
          rows={3}
          aria-invalid={errors.delivery_note ? true : undefined}
          aria-describedby={errors.delivery_note ? 'note-error' : undefined}
        />
        {errors.delivery_note && (
          <p id="note-error" className="field-error">
            {errors.delivery_note}
          </p>
        )}
      </div>
    </>
  );
}
