import { formatPence } from '@/lib/format';

/** A line's unit price ex VAT as charged, with the list price and the discount beside it
 * where one applies, and what priced it (pricedBy: "6+ packs price", the price group's
 * name, or both; lib/price-breaks linePricedBy): units × the first amount is the line
 * amount. */
export function LineUnitPrice({ unit, list, discountPercent, pricedBy = '' }: { unit: number; list: number; discountPercent: number; pricedBy?: string }) {
  return (
    <>
      <span className="unit-price">{formatPence(unit)}</span>
      {(discountPercent > 0 || list !== unit) && (
        <span className="muted">
          {' '}
          (list <s>{formatPence(list)}</s>
          {discountPercent > 0 && `, ${discountPercent}% off`})
        </span>
      )}
      {pricedBy && (
        <>
          <br />
          <span className="muted price-note">{pricedBy}</span>
        </>
      )}
    </>
  );
}
