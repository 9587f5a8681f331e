import { idToken } from './account-store';
import { apiFetch } from './api';
import type { ForwardLineAnswer, ForwardOrderAnswer, ForwardOrdersAnswer } from './api-types';
import { formatLondonDay } from './london-dates';

// The buyers' book (docs/forward-orders.md "The buyers' book"): the signed-in buyer's
// forward orders with each line's state from the allocation ledger, and the reduce or
// cancel of a line until its order-by date.

export type ForwardOrder = ForwardOrderAnswer;
export type ForwardLine = ForwardLineAnswer;

const bearer = async () => ({ Authorization: `Bearer ${await idToken()}` });

/** The buyer's forward orders, newest first (GET /api/forward-orders). */
export async function listForwardOrders(): Promise<ForwardOrder[]> {
  const a = await apiFetch<ForwardOrdersAnswer>('/api/forward-orders', { method: 'GET', headers: await bearer() });
  return a.orders ?? [];
}

/** Reduces the line of sku on forward order id to packs (0 cancels it) and answers the
 * order as it now stands. A raise, a line past its order-by date or one a delivery was
 * allocated to meanwhile is an ApiError 409 with the server's sentence. */
export async function reduceForwardLine(id: string, sku: string, packs: number): Promise<ForwardOrder> {
  return apiFetch<ForwardOrder>(`/api/forward-orders/${encodeURIComponent(id)}/lines`, {
    csrf: true,
    body: { token: await idToken(), sku, packs },
  });
}

const packs = (n: number) => `${n} ${n === 1 ? 'pack' : 'packs'}`;

/** A forward line's state in words: "Ordered", "Allocated 3 of 5 packs", "Backordered 2
 * packs" (with what was allocated before it), "Cancelled"; a line reduced before its
 * order-by date says how many packs were cancelled. */
export function lineStateText(l: Pick<ForwardLine, 'state' | 'ordered_packs' | 'allocated_packs' | 'backordered_packs' | 'cancelled_packs'>): string {
  const cancelled = l.cancelled_packs > 0 ? ` (${packs(l.cancelled_packs)} cancelled)` : '';
  switch (l.state) {
    case 'cancelled':
      return 'Cancelled';
    case 'allocated':
      return `Allocated ${l.allocated_packs} of ${packs(l.ordered_packs)}${cancelled}`;
    case 'backordered':
      return l.allocated_packs > 0
        ? `Allocated ${l.allocated_packs} of ${packs(l.ordered_packs)}, backordered ${packs(l.backordered_packs)}`
        : `Backordered ${packs(l.backordered_packs)}`;
    default:
      return l.cancelled_packs > 0 ? `Ordered ${packs(l.ordered_packs - l.cancelled_packs)}${cancelled}` : 'Ordered';
  }
}

/** The delivery window of a forward order in words: "from 1 September 2027", or "from 1
 * September to 1 October 2027" when its lines come on different dates. */
export function deliveryWindowText(o: Pick<ForwardOrder, 'delivery_from' | 'delivery_to'>): string {
  if (!o.delivery_from) return '';
  if (!o.delivery_to || o.delivery_to === o.delivery_from) return `from ${formatLondonDay(o.delivery_from)}`;
  return `from ${formatLondonDay(o.delivery_from)} to ${formatLondonDay(o.delivery_to)}`;
}

/** "Order by 30 June 2027", or "Pre-orders closed on 30 June 2027" once it can no longer change. */
export function orderByText(l: Pick<ForwardLine, 'order_by' | 'can_change' | 'open_packs'>): string {
  if (l.can_change) return `Order by ${formatLondonDay(l.order_by)}`;
  return l.open_packs > 0 ? `Pre-orders closed on ${formatLondonDay(l.order_by)}` : '';
}
