'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { setCartUpdated } from '@/lib/account-store';
import { ApiError, apiErrorText, fieldProblems } from '@/lib/api';
import { getBasket, type Basket } from '@/lib/basket';
import { addressProblems, checkoutInfo, emptyAddress, forgetCheckoutKey, loadDraft, placeOrder, saveDraft, type Address, type CheckoutInfo } from '@/lib/checkout';
import { formatPence } from '@/lib/format';
import { AddressFields } from './address-fields';
import { MINIMUM_NOTICE_ID, MinimumNotice } from './minimum-notice';

interface Draft {
  sameAsBilling: boolean;
  address: Address;
  option: string;
  note: string;
}

/** Delivery: where to (the billing address or another), how (with its charge), an
 * optional note, a final review of lines and totals, and Place Order. */
export function DeliveryStep() {
  const router = useRouter();
  const [info, setInfo] = useState<CheckoutInfo | null>(null);
  const [basket, setBasket] = useState<Basket | null>(null);
  const [d, setD] = useState<Draft>({ sameAsBilling: true, address: emptyAddress(), option: 'standard', note: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    Promise.all([checkoutInfo(), getBasket()])
      .then(([i, b]) => {
        setInfo(i);
        setBasket(b);
        const saved = loadDraft<Draft>('delivery');
        if (saved) setD(saved);
      })
      .catch(() => setError('Your checkout could not be loaded. Please reload the page.'));
  }, []);
  const update = (next: Draft) => {
    setD(next);
    saveDraft('delivery', next);
  };

  if (error && !info) return <p className="form-error" role="alert">{error}</p>;
  if (!info || !basket) return <p role="status">Loading your order…</p>;
  const minimum = <MinimumNotice minimum={info.minimum_order} short={info.below_minimum_by} />;
  if (!info.billing)
    return (
      <>
        {minimum}
        <p className="form-error" role="alert">
          Please give your billing details first. <Link href="/checkout/billing/">Go to billing</Link>.
        </p>
      </>
    );
  const option = info.delivery_options.find((o) => o.id === d.option) ?? info.delivery_options[0]!;
  const isFree = (o: { id: string }) => o.id === 'standard' && basket.net_ex_vat >= info.free_delivery_threshold;
  const free = isFree(option);
  const charge = free ? 0 : option.chargePence;
  const chargeVat = Math.floor((charge * 20 + 50) / 100);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const p = d.sameAsBilling ? {} : addressProblems(d.address, 'deliver_to.');
    setErrors(p);
    if (Object.keys(p).length) return;
    setBusy(true);
    setError('');
    try {
      const order = await placeOrder({ delivery_option: option.id, same_as_billing: d.sameAsBilling, deliver_to: d.sameAsBilling ? null : d.address, delivery_note: d.note });
      forgetCheckoutKey();
      sessionStorage.removeItem('checkout:delivery');
      setCartUpdated();
      router.push(`/checkout/complete/${order.id}/`);
    } catch (err) {
      // The idempotency key is kept: pressing Place Order again cannot make a second order.
      setErrors(fieldProblems(err));
      setError(err instanceof ApiError ? `Your order was not placed. ${apiErrorText(err, '')}` : 'We could not reach the shop. Your basket is safe; press Place Order again.');
      setBusy(false);
    }
  }

  return (
    <form className="form checkout-form" onSubmit={submit} noValidate>
      {minimum}
      {error && <p className="form-error" role="alert">{error}</p>}
      <fieldset className="field">
        <legend>Deliver to</legend>
        <div className="check">
          <input id="same" type="radio" name="to" checked={d.sameAsBilling} onChange={() => update({ ...d, sameAsBilling: true })} />
          <label htmlFor="same">
            The billing address: {info.billing.address.line1}, {info.billing.address.town} {info.billing.address.postcode}
          </label>
        </div>
        <div className="check">
          <input id="other" type="radio" name="to" checked={!d.sameAsBilling} onChange={() => update({ ...d, sameAsBilling: false })} />
          <label htmlFor="other">Another address</label>
        </div>
      </fieldset>
      {!d.sameAsBilling && <AddressFields id="delivery" value={d.address} onChange={(address) => update({ ...d, address })} errors={errors} prefix="deliver_to." />}
      <fieldset className="field">
        <legend>Delivery</legend>
        {info.delivery_options.map((o) => {
          return (
            <div className="check" key={o.id}>
              <input id={`opt-${o.id}`} type="radio" name="option" checked={d.option === o.id} onChange={() => update({ ...d, option: o.id })} />
              <label htmlFor={`opt-${o.id}`}>
                {o.name}: {isFree(o) ? 'free' : `${formatPence(o.chargePence)} ex VAT`}
              </label>
            </div>
          );
        })}
      </fieldset>
      <div className="field">
        <label htmlFor="note">Delivery note (optional)</label>
        <textarea id="note" maxLength={300} value={d.note} onChange={(e) => update({ ...d, note: e.target.value })} rows={3} />
      </div>
      <h2>Review your order</h2>
      <ul className="review-lines">
        {basket.lines.map((l) => (
          <li key={l.sku}>
            {l.quantity} × {l.name} <span className="muted">({l.sku})</span> — {formatPence(l.line_amount)}
          </li>
        ))}
      </ul>
      <dl className="totals">
        <dt>Goods ex VAT</dt>
        <dd>{formatPence(basket.goods_ex_vat)}</dd>
        {basket.coupon_discount > 0 && (
          <>
            <dt>Coupon</dt>
            <dd>−{formatPence(basket.coupon_discount)}</dd>
          </>
        )}
        <dt>Delivery ex VAT</dt>
        <dd>{formatPence(charge)}</dd>
        <dt>Total ex VAT</dt>
        <dd data-total="net">{formatPence(basket.net_ex_vat + charge)}</dd>
        <dt>VAT</dt>
        <dd>{formatPence(basket.vat + chargeVat)}</dd>
        <dt>Total inc VAT</dt>
        <dd data-total="gross">{formatPence(basket.net_ex_vat + charge + basket.vat + chargeVat)}</dd>
      </dl>
      <button type="submit" className="button" disabled={busy || info.below_minimum_by > 0} aria-describedby={info.below_minimum_by > 0 ? MINIMUM_NOTICE_ID : undefined}>
        {busy ? 'Placing your order…' : 'Place Order'}
      </button>
    </form>
  );
}
