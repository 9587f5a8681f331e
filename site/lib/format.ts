/** Formats integer pence as pounds with two decimals ("£1,234.05"). Money stays in
 * integer pence everywhere else; this is the edge of the UI. */
export function formatPence(pence: number): string {
  if (!Number.isSafeInteger(pence)) {
    throw new RangeError(`not a whole number of pence: ${pence}`);
  }
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  const pounds = Math.floor(abs / 100).toLocaleString('en-GB');
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
