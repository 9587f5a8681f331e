'use client';
import { useState, type FormEvent } from 'react';
import type { Basket } from '@/lib/basket';
import { CouponTerms } from './coupon-terms';

/** The basket's coupon: the one applied, with its terms, why it does not apply (when it
 * does not) and Remove coupon; or a box to apply one. What is typed in the box stays while
 * a coupon is applied, so removing it shows the box as the buyer left it. */
export function CouponBox({ coupon, onApply, onRemove }: { coupon: Basket['coupon']; onApply: (code: string) => void; onRemove: () => void }) {
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    onApply(code);
  };
  return (
    <section className="coupon" aria-labelledby="coupon-title">
      <h2 id="coupon-title">Coupon</h2>
      {coupon ? (
        <>
          <p>
            <strong className="coupon-code">{coupon.id}</strong>: {coupon.description}
            {coupon.error && <span className="form-error"> Not applied: {coupon.error}</span>}{' '}
            <button type="button" className="link-button" onClick={onRemove}>
              Remove coupon
            </button>
          </p>
          <CouponTerms code={coupon.id} />
        </>
      ) : (
        <form onSubmit={submit} className="coupon-form">
          <label htmlFor="coupon-code">Coupon code</label>
          <input id="coupon-code" value={code} onChange={(e) => setCode(e.target.value)} autoCapitalize="characters" />
          <button type="submit" className="button">
            Apply
          </button>
        </form>
      )}
    </section>
  );
}
