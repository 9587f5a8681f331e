import { formatUkDate } from './format';

/** An order's place in its lifecycle (docs/back-office.md "Order lifecycle"). cancelling is
 * a cancellation giving back stock: seconds at most, so everyone outside the store reads it
 * as cancelled. */
export type OrderStatus = 'placed' | 'confirmed' | 'dispatched' | 'completed' | 'cancelling' | 'cancelled';

/** The statuses staff filter the orders list by, in lifecycle order ('' is all of them). */
export const STATUS_FILTERS: { value: '' | Exclude<OrderStatus, 'cancelling'>; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'placed', label: 'Placed' },
  { value: 'confirmed', label: 'Confirmed' },
  { value: 'dispatched', label: 'Dispatched' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
];

const WORDS: Record<OrderStatus, string> = {
  placed: 'Placed',
  confirmed: 'Confirmed',
  dispatched: 'Dispatched',
  completed: 'Completed',
  cancelling: 'Cancelled',
  cancelled: 'Cancelled',
};

/** A status in words, as buyers and staff read it: "Placed" … "Cancelled" (cancelling
 * too). An order answered before statuses existed has none and was placed; a status this
 * page does not know yet is shown as the server wrote it, capitalised. */
export function statusWord(status: string | undefined | null): string {
  if (!status) return WORDS.placed;
  if (status in WORDS) return WORDS[status as OrderStatus];
  return status[0]!.toUpperCase() + status.slice(1).replace(/_/g, ' ');
}

/** Whether the order is cancelled, or being cancelled (the buyer sees both as cancelled). */
export const isCancelled = (status: string | undefined | null) => status === 'cancelled' || status === 'cancelling';

/** The moves staff can make on an order (POST /api/admin/orders/{id}/action). */
export type OrderAction = 'confirm' | 'pay' | 'dispatch' | 'complete' | 'cancel';

/** What the actions read of an order. A time is Unix ms; absent, null or 0 is not yet. */
export interface OrderFacts {
  status?: string;
  paid_at?: number | null;
  billing?: { payment_method?: string } | null;
}

/** One action the page offers now: blocked says why its button is disabled. */
export interface ActionChoice {
  action: OrderAction;
  label: string;
  blocked?: string;
}

/** Whether staff have recorded the order's payment. */
export const isPaid = (o: OrderFacts) => !!o.paid_at;

/** Pro-forma orders are paid before they go out; without billing an order is pro-forma,
 * as the server reads it (orders.Order.ProForma). */
export const isProForma = (o: OrderFacts) => o.billing?.payment_method !== 'account';

/** The actions allowed for the order as it is now, in the order the page shows them. The
 * server is the authority (any other move is a 409 with its sentence); this only decides
 * which buttons to show:
 * - placed: Confirm, Cancel; confirmed: Dispatch, Cancel; dispatched: Complete;
 * - Mark paid on any unpaid order that is not cancelled (or being cancelled);
 * - Dispatch of an unpaid pro-forma order is shown, disabled, with the reason. */
export function orderActions(o: OrderFacts): ActionChoice[] {
  const status = o.status || 'placed';
  if (isCancelled(status)) return [];
  const out: ActionChoice[] = [];
  if (status === 'placed') out.push({ action: 'confirm', label: 'Confirm' });
  if (!isPaid(o)) out.push({ action: 'pay', label: 'Mark paid' });
  if (status === 'confirmed') {
    const blocked = isProForma(o) && !isPaid(o) ? 'A pro-forma order is dispatched once it is paid: mark it paid first.' : undefined;
    out.push({ action: 'dispatch', label: 'Dispatch', ...(blocked && { blocked }) });
  }
  if (status === 'dispatched') out.push({ action: 'complete', label: 'Complete' });
  if (status === 'placed' || status === 'confirmed') out.push({ action: 'cancel', label: 'Cancel order' });
  return out;
}

/** What the page says once an action has gone through. */
export const ACTION_DONE: Record<OrderAction, string> = {
  confirm: 'confirmed',
  pay: 'marked paid',
  dispatch: 'dispatched',
  complete: 'completed',
  cancel: 'cancelled',
};

/** What a buyer's order list says of an order beyond its status: when and how it went out,
 * or when (and why) it was cancelled; null when there is nothing more to say. */
export function progressNote(
  o: OrderFacts & {
    dispatched_at?: number | null;
    dispatch?: { carrier: string; tracking: string } | null;
    cancelled_at?: number | null;
    cancel_reason?: string;
  },
): string | null {
  if (isCancelled(o.status)) {
    const parts = [o.cancelled_at ? `Cancelled ${formatUkDate(o.cancelled_at)}` : 'Cancelled'];
    if (o.cancel_reason) parts.push(`Reason: ${o.cancel_reason}`);
    return parts.join(' · ');
  }
  if (o.dispatch) {
    return `Dispatched${o.dispatched_at ? ` ${formatUkDate(o.dispatched_at)}` : ''} · ${o.dispatch.carrier}, tracking reference ${o.dispatch.tracking}`;
  }
  return null;
}
