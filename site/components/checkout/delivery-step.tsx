'use client';
import Link from '@/components/app/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { ApiError, apiErrorText, fieldProblems } from '@/lib/api';
import { shortReason } from '@/lib/basket';
import { addressProblems, checkoutOrdered, CREDIT_HOLD, payOrder, payProFormaInstead, placeOrder } from '@/lib/checkout';
import { CreditHoldOffer } from './credit-hold-offer';
import { DeliveryFields } from './delivery-fields';
import { ForwardPart } from './forward-part';
import { MINIMUM_NOTICE_ID, MinimumNotice } from './minimum-notice';
import { Totals } from './order-totals';
import { PlaceOrderRefusal, type Refusal } from './place-order-refusal';
import { ReviewLines } from './review-lines';
import { useDeliveryCheckout } from './use-delivery-checkout';

/** The id Place Order is described by while lines of the basket are short. */
const SHORT_NOTICE_ID = 'short-notice';

/** Delivery: where to (the billing address or another), how (with the server's quote of
 * each option), an optional note, a final review of lines and totals, and Place Order
 * (then, for a card order, on to the payment page). The
 * figures are the server's (POST /api/checkout quotes the order per delivery option); the
 * browser only formats them. */
export function DeliveryStep() {
  const router = useRouter();
  const { info, basket, draft: d, failed, update, retry, reloadBasket } = useDeliveryCheckout();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  /** The basket was ordered (here or in another tab): Place Order is over. */
  const [ordered, setOrdered] = useState(false);
  /** The account is on credit hold: the order can go pro-forma instead. */
  const [held, setHeld] = useState(false);
  /** The card order is placed and the buyer is on the way to the payment page. */
  const [paying, setPaying] = useState(false);

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

  function submit(e: FormEvent) {
    e.preventDefault();
    void place();
  }

  async function place() {
    if (!option) return;
    const p = d.sameAsBilling ? {} : addressProblems(d.address, 'deliver_to.');
    setErrors(p);
    if (Object.keys(p).length) return;
    setBusy(true);
    setRefusal(null);
    try {
      const order = await placeOrder({
        delivery_option: option.id,
        same_as_billing: d.sameAsBilling,
        deliver_to: d.sameAsBilling ? null : d.address,
        delivery_note: d.note,
        no_backorders: !!d.noBackorders,
      });
      checkoutOrdered();
      // A forward order alone has nothing to pay yet: its goods are invoiced as they are allocated.
      if (info?.billing?.payment_method === 'card' && order.kind !== 'forward') await payByCard(order.id);
      else router.push(`/checkout/complete/${order.id}/`);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 409 && err.orderId) {
        // This basket is already an order (another tab, or an earlier press): this checkout is over.
        checkoutOrdered();
        setOrdered(true);
        setRefusal({ text: err.message, orderId: err.orderId });
        return;
      }
      if (err instanceof ApiError && err.status === 409 && err.code === CREDIT_HOLD) {
        // Nothing was written: the sentence says why, and the offer places it pro-forma.
        setRefusal({ text: err.message });
        setHeld(true);
        return;
      }
      // The idempotency key is kept: pressing Place Order again cannot make a second order.
      setErrors(fieldProblems(err));
      if (err instanceof ApiError) {
        setRefusal({ text: `Your order was not placed. ${apiErrorText(err, '')}`, toBasket: err.status === 409 });
        // A line may have become short, or the basket changed: show it as it is now.
        if (err.status === 409) reloadBasket();
      } else setRefusal({ text: 'We could not reach the shop. Your basket is safe; press Place Order again.' });
    }
  }

  /** The order is placed: takes the buyer to the payment page for it. Should that not start
   * (the invoice is still being issued, or the shop cannot be reached), the complete page
   * says the order awaits payment and offers Pay now. */
  async function payByCard(id: string) {
    setPaying(true);
    try {
      const { url } = await payOrder(id);
      window.location.assign(url);
    } catch {
      router.push(`/checkout/complete/${id}/`);
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
      <DeliveryFields draft={d} onChange={update} billingAddress={info.billing.address} options={info.delivery_options} errors={errors} />
      <h2>Review your order</h2>
      <ReviewLines lines={basket.lines} />
      <Totals
        figures={{ ...option, goods_ex_vat: info.goods_ex_vat, coupon_discount: info.coupon_discount }}
        delivery={option.free ? 'free' : option.charge_ex_vat}
      />
      <ForwardPart
        lines={basket.lines}
        forwardTotal={info.forward_total?.total_inc_vat ?? null}
        todayTotal={option.today_total_inc_vat}
        noBackorders={!!d.noBackorders}
        onNoBackorders={(on) => update({ ...d, noBackorders: on })}
      />
      <PlaceOrderRefusal refusal={refusal} />
      {held && info.billing && (
        <CreditHoldOffer
          switchAndPlace={async () => {
            if (!info.billing) return;
            try {
              await payProFormaInstead(info.billing);
            } catch (err) {
              setRefusal({ text: apiErrorText(err, 'We could not switch this order to pro-forma: press the button again.') });
              return;
            }
            setHeld(false);
            await place();
          }}
        />
      )}
      <button type="submit" className="button" disabled={busy || ordered || !!blockedBy} aria-describedby={blockedBy || undefined}>
        {paying ? 'Taking you to the payment page…' : busy ? 'Placing your order…' : 'Place Order'}
      </button>
    </form>
  );
}
