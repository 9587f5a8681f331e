import Link from '@/components/app/link';

/** What a refused or failed Place Order tells the buyer: the sentence, and where to go. */
export interface Refusal {
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
  if (at < 0)
    return (
      <>
        {text} See order {link}.
      </>
    );
  return (
    <>
      {text.slice(0, at)}
      {link}
      {text.slice(at + orderId.length)}
    </>
  );
}

/** Why Place Order did not place the order, beside the button, where the buyer is looking
 * when the answer comes: a link to the order the basket already is, or back to the basket. */
export function PlaceOrderRefusal({ refusal }: { refusal: Refusal | null }) {
  if (!refusal) return null;
  return (
    <p className="form-error" role="alert">
      {refusal.orderId ? <OrderSentence text={refusal.text} orderId={refusal.orderId} /> : refusal.text}
      {refusal.toBasket && (
        <>
          {' '}
          <Link href="/checkout/basket/">Back to your basket</Link>.
        </>
      )}
    </p>
  );
}
