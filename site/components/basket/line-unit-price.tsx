import { formatPence } from '@/lib/format';
import { linePricedBy, priceSteps } from '@/lib/price-breaks';

/** A line's unit price ex VAT as charged, with the list price and the steps from it
 * (lib/price-breaks priceSteps: the group's price, the break, the discount) beside it
 * where any applies, and what priced it (pricedBy: "6+ packs price", the price group's
 * name, or both; lib/price-breaks linePricedBy): units × the first amount is the line
 * amount. */
export function LineUnitPrice({
  unit,
  list,
  discountPercent,
  base = list,
  breakFrom = null,
  breakPrice = base,
  pricedBy = '',
}: {
  unit: number;
  list: number;
  discountPercent: number;
  base?: number;
  breakFrom?: number | null;
  breakPrice?: number;
  pricedBy?: string;
}) {
  const steps = priceSteps({ list, base, breakFrom, breakPrice, discountPercent });
  return (
    <>
      <span className="unit-price">{formatPence(unit)}</span>
      {(steps || list !== unit) && (
        <span className="muted">
          {' '}
          (list <s>{formatPence(list)}</s>
          {steps && `, ${steps}`})
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

/** The facts of a priced line (a basket line or an order line) that LineUnitPrice shows. */
type PricedLineFacts = {
  unit_price: number;
  list_price: number;
  base_price: number;
  break_from: number | null;
  break_price: number;
  discount_percent: number;
  price_group: string | null;
};

/** A basket or order line's unit price with its steps and what priced it. */
export function PricedLineUnitPrice({ line: l }: { line: PricedLineFacts }) {
  return (
    <LineUnitPrice
      unit={l.unit_price}
      list={l.list_price}
      base={l.base_price}
      breakFrom={l.break_from}
      breakPrice={l.break_price}
      discountPercent={l.discount_percent}
      pricedBy={linePricedBy(l)}
    />
  );
}
