/** Whole numbers with the thousands separator ("1,436"): one formatter for the page, since
 * toLocaleString with a locale builds a new one on every call, which a listing's prices and
 * counts made hundreds of times in a render (issue 40). */
const wholeNumbers = new Intl.NumberFormat('en-GB');
export const formatCount = (n: number): string => wholeNumbers.format(n);

/** Formats integer pence as pounds with two decimals ("£1,234.05"). Money stays in
 * integer pence everywhere else; this is the edge of the UI. */
export function formatPence(pence: number): string {
  if (!Number.isSafeInteger(pence)) {
    throw new RangeError(`not a whole number of pence: ${pence}`);
  }
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  const pounds = formatCount(Math.floor(abs / 100));
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}£${pounds}.${rest}`;
}

/** The price label of a unit price in £ with 2 decimals; under £1 it adds the pence
 * ("£0.19 each (19p)"), as value-card buyers look for "19p each". */
export function unitPriceLabel(pence: number): string {
  const pounds = `${formatPence(pence)} each`;
  return pence > 0 && pence < 100 ? `${pounds} (${pence}p)` : pounds;
}

/** Pence as the decimal string schema.org prices use: 65 -> "0.65". */
export function decimalPrice(pence: number): string {
  if (!Number.isSafeInteger(pence) || pence < 0) throw new RangeError(`not a price in pence: ${pence}`);
  return `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
}

/** A moment (Unix ms) as a date in words, "24 November 2025", as the date falls in the UK
 * (Europe/London) wherever the browser is: an invoice's date and tax point are the shop's. */
export function formatUkDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' });
}

/** A moment (Unix ms) as a UK date and time in words, "24 November 2025, 18:27", as the
 * clocks in the UK (Europe/London) showed it: the back office's when. */
export function formatUkDateTime(ms: number): string {
  return new Date(ms).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/London' });
}

/** The most pounds a form takes: a safe whole number of pence either side. */
const MAX_POUNDS_DIGITS = 13;

/** An amount of pounds as staff type it into a form ("250", "49.9", "£1,234.56") in whole
 * pence, or null when it is not one: negative, more than two decimals, thousands commas in
 * the wrong places, or nothing at all. Read from the text's digits, never through a
 * floating-point number, so "0.29" is 29 pence exactly. The reverse is decimalPrice. */
export function parsePounds(text: string): number | null {
  const t = text.trim().replace(/^£\s*/, '');
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{0,2}))?$/.exec(t);
  if (!m || (!m[1] && !m[2])) return null;
  const whole = (m[1] ?? '0').replace(/,/g, '').replace(/^0+(?=\d)/, '');
  if (whole.length > MAX_POUNDS_DIGITS) return null;
  return Number(whole) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
