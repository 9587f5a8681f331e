'use client';
import Link from '@/components/app/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { setCartUpdated } from '@/lib/account-store';
import { LoadFailed } from '@/components/errors/load-failed';
import { ApiError, apiErrorText, fieldProblems } from '@/lib/api';
import { shortLineText } from '@/lib/availability';
import { getBasket, shortReason, type Basket } from '@/lib/basket';
import { addressProblems, checkoutInfo, emptyAddress, forgetCheckoutKey, loadDraft, placeOrder, saveDraft, type Address, type CheckoutInfo } from '@/lib/checkout';
import { formatPence } from '@/lib/format';
import { AddressFields } from './address-fields';
import { MINIMUM_NOTICE_ID, MinimumNotice } from './minimum-notice';

/** The id Place Order is described by while lines of the basket are short. */
const SHORT_NOTICE_ID = 'short-notice';

interface Draft {
  sameAsBilling: boolean;
  address: Address;
  option: string;
  note: string;
}

/** What a refused or failed Place Order tells the buyer: the sentence, and where to go. */
interface Refusal {
  text: string;
  /** The order this basket was already placed as (409 with order_id). */
  orderId?: string;
  toBasket?: boolean;
}

/** The order page a refusal points at. */
export const orderHref = (id: string) => `/account/orders/?id=${encodeURIComponent(id)}`;

/** The server's sentence with the order it names as a link to that order. */
function OrderSentence({ text, orderId }: { text: string; orderId: string }) {
  const link = <Link href={orderHref(orderId)}>{orderId}</Link>;
  const at = text.indexOf(orderId);
  if (at < 0) return <>{text} See order {link}.</>;
  return (
    <>
      {text.slice(0, at)}
      {link}
      {text.slice(at + orderId.length)}
    </>
  );
}

/** Delivery: where to (the billing address or another), how (with the server's quote of
 * each option), an optional note, a final review of lines and totals, and Place Order. The
 * figures are the server's (POST /api/checkout quotes the order per delivery option); the
 * browser only formats them. */
export function DeliveryStep() {
  const router = useRouter();
  const [info, setInfo] = useState<CheckoutInfo | null>(null);
  const [basket, setBasket] = useState<Basket | null>(null);
  const [d, setD] = useState<Draft>({ sameAsBilling: true, address: emptyAddress(), option: 'standard', note: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  /** The basket was ordered (here or in another tab): Place Order is over. */
  const [ordered, setOrdered] = useState(false);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all([checkoutInfo(), getBasket()])
      .then(([i, b]) => {
        if (!live) return;
        setInfo(i);
        setBasket(b);
        const saved = loadDraft<Draft>('delivery');
        if (saved) setD(saved);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [attempt]);
  const update = (next: Draft) => {
    setD(next);
    saveDraft('delivery', next);
  };

  const retry = () => {
    setFailed(false);
    setAttempt((n) => n + 1);
  };
  if (failed) return <LoadFailed what="Your checkout could not be loaded." retry={retry} />;
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
  const option = info.delivery_options.find((o) => o.id === d.option) ?? info.delivery_options[0];
  if (!option) return <LoadFailed what="No delivery option could be quoted for this order." retry={retry} />;
  const short = shortReason(basket);
  const blockedBy = [info.below_minimum_by > 0 && MINIMUM_NOTICE_ID, short && SHORT_NOTICE_ID].filter(Boolean).join(' ');

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!option) return;
    const p = d.sameAsBilling ? {} : addressProblems(d.address, 'deliver_to.');
    setErrors(p);
    if (Object.keys(p).length) return;
    setBusy(true);
    setRefusal(null);
    try {
      const order = await placeOrder({ delivery_option: option.id, same_as_billing: d.sameAsBilling, deliver_to: d.sameAsBilling ? null : d.address, delivery_note: d.note });
      forgetCheckoutKey();
      sessionStorage.removeItem('checkout:delivery');
      setCartUpdated();
      router.push(`/checkout/complete/${order.id}/`);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 409 && err.orderId) {
        // This basket is already an order (another tab, or an earlier press): this checkout is over.
        forgetCheckoutKey();
        sessionStorage.removeItem('checkout:delivery');
        setCartUpdated();
        setOrdered(true);
        setRefusal({ text: err.message, orderId: err.orderId });
        return;
      }
      // The idempotency key is kept: pressing Place Order again cannot make a second order.
      setErrors(fieldProblems(err));
      if (err instanceof ApiError) {
        setRefusal({ text: `Your order was not placed. ${apiErrorText(err, '')}`, toBasket: err.status === 409 });
        // A line may have become short, or the basket changed: show it as it is now.
        if (err.status === 409) getBasket().then(setBasket, () => {});
      } else setRefusal({ text: 'We could not reach the shop. Your basket is safe; press Place Order again.' });
    }
  }

  return (
    <form className="form checkout-form" onSubmit={submit} noValidate>
      {minimum}
      {short && (
        <p id={SHORT_NOTICE_ID} className="nudge basket-short" role="alert">
          {short.replace('marked above', 'marked in your basket')} <Link href="/checkout/basket/">Back to your basket</Link>.
        </p>
      )}
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
                {o.name}: {o.free ? 'free' : `${formatPence(o.charge_ex_vat)} ex VAT`}
              </label>
            </div>
          );
        })}
      </fieldset>
      <div className="field">
        <label htmlFor="note">Delivery note (optional)</label>
        <textarea
          id="note"
          maxLength={300}
          value={d.note}
          onChange={(e) => update({ ...d, note: e.target.value })}
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
      <h2>Review your order</h2>
      <ul className="review-lines">
        {basket.lines.map((l) => (
          <li key={l.sku}>
            {l.quantity} × {l.name} <span className="muted">({l.sku})</span> — {formatPence(l.line_amount)}
            {l.short && <strong className="basket-short"> {shortLineText(l.availability)}</strong>}
          </li>
        ))}
      </ul>
      <dl className="totals">
        <dt>Goods ex VAT</dt>
        <dd data-total="goods">{formatPence(info.goods_ex_vat)}</dd>
        {info.coupon_discount > 0 && (
          <>
            <dt>Coupon</dt>
            <dd data-total="coupon">−{formatPence(info.coupon_discount)}</dd>
          </>
        )}
        <dt>Delivery ex VAT</dt>
        <dd data-total="delivery">{option.free ? 'Free' : formatPence(option.charge_ex_vat)}</dd>
        <dt>Total ex VAT</dt>
        <dd data-total="net">{formatPence(option.net_ex_vat)}</dd>
        <dt>VAT</dt>
        <dd data-total="vat">{formatPence(option.vat)}</dd>
        <dt>Total inc VAT</dt>
        <dd data-total="gross">{formatPence(option.total_inc_vat)}</dd>
      </dl>
      {/* Beside Place Order, where the buyer is looking when the answer comes. */}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal.orderId ? <OrderSentence text={refusal.text} orderId={refusal.orderId} /> : refusal.text}
          {refusal.toBasket && (
            <>
              {' '}
              <Link href="/checkout/basket/">Back to your basket</Link>.
            </>
          )}
        </p>
      )}
      <button type="submit" className="button" disabled={busy || ordered || !!blockedBy} aria-describedby={blockedBy || undefined}>
        {busy ? 'Placing your order…' : 'Place Order'}
      </button>
    </form>
  );
}
