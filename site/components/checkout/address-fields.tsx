'use client';
import { Field } from '@/components/account/field';
import type { Address } from '@/lib/checkout';

/** The four fields of a postal address, with their errors (keys prefix + field). */
export function AddressFields({
  id,
  value,
  onChange,
  errors,
  prefix,
}: {
  id: string;
  value: Address;
  onChange: (a: Address) => void;
  errors: Record<string, string>;
  prefix: string;
}) {
  const set = (k: keyof Address) => (e: { target: { value: string } }) => onChange({ ...value, [k]: e.target.value });
  return (
    <>
      <Field
        id={`${id}-line1`}
        label="Address line 1"
        autoComplete="address-line1"
        value={value.line1}
        onChange={set('line1')}
        error={errors[`${prefix}line1`]}
      />
      <Field
        id={`${id}-line2`}
        label="Address line 2 (optional)"
        autoComplete="address-line2"
        value={value.line2}
        onChange={set('line2')}
        error={errors[`${prefix}line2`]}
      />
      <Field id={`${id}-town`} label="Town or city" autoComplete="address-level2" value={value.town} onChange={set('town')} error={errors[`${prefix}town`]} />
      <Field
        id={`${id}-postcode`}
        label="Postcode"
        autoComplete="postal-code"
        value={value.postcode}
        onChange={set('postcode')}
        error={errors[`${prefix}postcode`]}
      />
    </>
  );
}
