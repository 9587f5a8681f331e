import type { ForwardAnswer } from './api-types';
import { formatLondonDay, isDay } from './london-dates';

/** A forward product's marking as pages and answers carry it: delivery expected from
 * delivery_from, pre-orders taken up to and including order_by (London days, YYYY-MM-DD).
 * docs/forward-orders.md "Marking a product forward". */
export type Forward = ForwardAnswer;

/** Whether a forward product may be pre-ordered on London day today: on or before its
 * order-by date. Without today (a page being built, or hydrating) the build's view holds:
 * open. A product that is not forward never is. */
export function preOrderOpen(f: Forward | null | undefined, today: string | null): boolean {
  if (!f || !isDay(f.order_by)) return false;
  return today === null || today <= f.order_by;
}

/** What a product says about its pre-order on London day today, in place of its stock:
 * while open, "Pre-order for delivery from 1 September 2027" and "Order by 30 June 2027";
 * after the order-by date, "Pre-orders closed on 30 June 2027" when it is out of stock (in
 * stock, it is an ordinary product again: null, show the stock). null for a product that
 * is not forward. */
export function preOrderText(f: Forward | null | undefined, today: string | null, inStock: boolean): string[] | null {
  if (!f || !isDay(f.order_by)) return null;
  if (preOrderOpen(f, today)) {
    const delivery = isDay(f.delivery_from) ? formatLondonDay(f.delivery_from) : f.delivery_from;
    return [`Pre-order for delivery from ${delivery}`, `Order by ${formatLondonDay(f.order_by)}`];
  }
  return inStock ? null : [`Pre-orders closed on ${formatLondonDay(f.order_by)}`];
}
