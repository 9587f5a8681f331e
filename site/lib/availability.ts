import type { AvailabilityAnswer as Availability } from './api-types';

/** How much of a product is left, as the API answers it (prices and basket lines):
 * packs_left only when low (1 to 10 packs) or out (0). See docs/orders.md, "Availability
 * shown to buyers". */
export type { AvailabilityAnswer as Availability } from './api-types';

const packs = (n: number) => `${n} ${n === 1 ? 'pack' : 'packs'}`;

/** The words a buyer reads: "In stock", "Only 3 packs left", "Out of stock", "Pre-order"
 * (a forward product whose pre-order is open: docs/forward-orders.md). */
export function availabilityText(a: Availability): string {
  if (a.status === 'preorder') return 'Pre-order';
  if (a.status === 'out') return 'Out of stock';
  if (a.status === 'low' && a.packs_left !== undefined) return `Only ${packs(a.packs_left)} left`;
  return 'In stock';
}

/** What a basket line marked short (it asks for more than is in stock) tells the buyer. */
export function shortLineText(a: Availability | undefined): string {
  if (a?.status === 'out' || a?.packs_left === 0) return 'Out of stock: remove this line';
  if (a?.packs_left !== undefined) return `Only ${packs(a.packs_left)} left: reduce this line`;
  return 'Not enough in stock for this quantity: reduce this line';
}

const classes: Record<Availability['status'], string> = {
  in_stock: 'in-stock',
  low: 'low-stock',
  out: 'out-of-stock',
  preorder: 'preorder',
};

/** The classes of a stock line, for its colour: the same as the static page's (globals.css). */
export const availabilityClass = (a: Availability) => `stock stock-${classes[a.status]}`;
