/** Forward products and orders on the site (docs/forward-orders.md): a forward product is
 * pre-ordered up to and including its order-by date (London), for delivery from its
 * delivery date. Dates are ISO dates ("2027-09-01") as the API and the pages carry them. */

/** The wire shape of a product's forward marking on pages and answers. */
export type ForwardDates = { delivery_from: string; order_by: string };

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2027-09-01" → "1 September 2027"; anything else is answered as it is. */
export function longDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const month = months[Number(m[2]) - 1];
  return month ? `${Number(m[3])} ${month} ${m[1]}` : iso;
}

// en-CA writes dates as YYYY-MM-DD. Made once: toLocaleDateString with a time zone builds
// a new formatter on every call, which every grid card's render paid (issue 39's profile).
let londonDay: Intl.DateTimeFormat | undefined;

/** Today's ISO date in London, wherever the browser is: the day the shop's dates mean. */
export function londonToday(now: Date = new Date()): string {
  londonDay ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' });
  return londonDay.format(now);
}

/** Whether a product with these forward dates may be pre-ordered now (on or before its
 * order-by date, London). A page built before the date passed asks this in the browser. */
export function preOrderOpen(f: ForwardDates | null | undefined, now: Date = new Date()): f is ForwardDates {
  return !!f && londonToday(now) <= f.order_by;
}

/** "Pre-order for delivery from 1 September 2027". */
export const preOrderText = (deliveryFrom: string) => `Pre-order for delivery from ${longDate(deliveryFrom)}`;

/** "Order by 30 June 2027". */
export const orderByText = (orderBy: string) => `Order by ${longDate(orderBy)}`;

/** "Pre-orders closed on 30 June 2027". */
export const preOrdersClosedText = (orderBy: string) => `Pre-orders closed on ${longDate(orderBy)}`;

/** Whether a forward product may be pre-ordered on London day today (YYYY-MM-DD). Without
 * today (a page being built, or hydrating: components/catalogue/use-london-today.ts) the
 * build's view holds: open. A product that is not forward never is. */
export function preOrderOpenOn(f: ForwardDates | null | undefined, today: string | null): boolean {
  return !!f && (today === null || today <= f.order_by);
}

/** What a product says about its pre-order on London day today, in place of its stock:
 * while open, preOrderText and orderByText; after the order-by date, preOrdersClosedText
 * when it is out of stock (in stock, it is an ordinary product again: null, the stock
 * shows). null for a product that is not forward. */
export function preOrderLines(f: ForwardDates | null | undefined, today: string | null, inStock: boolean): string[] | null {
  if (!f) return null;
  if (preOrderOpenOn(f, today)) return [preOrderText(f.delivery_from), orderByText(f.order_by)];
  return inStock ? null : [preOrdersClosedText(f.order_by)];
}
