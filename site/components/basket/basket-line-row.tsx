import Link from '@/components/app/link';
import { ProductImage } from '@/components/catalogue/product-image';
import { availabilityClass, availabilityText, shortLineText } from '@/lib/availability';
import type { BasketLine } from '@/lib/basket';
import { formatPence } from '@/lib/format';
import { longDate, preOrderText } from '@/lib/forward';
import { nudgeText } from '@/lib/price-breaks';
import { PricedLineUnitPrice } from './line-unit-price';

/** One line of the basket table: the product with its stock, its unit price with the break
 * or price group that priced it, a packs box with Update (and the box's own problem), the
 * nudge to the next quantity break with a button adding those packs, the line's amount and
 * Remove. */
export function BasketLineRow({
  line: l,
  packs,
  boxError,
  onType,
  onUpdate,
  onRemove,
  onAddPacks,
}: {
  line: BasketLine;
  /** What the packs box holds. */
  packs: string;
  boxError?: string;
  onType: (value: string) => void;
  onUpdate: () => void;
  onRemove: () => void;
  /** Adds packs to the line (the nudge's button). */
  onAddPacks: (packs: number) => void;
}) {
  const nudge = l.nudge;
  /** The nudge's button goes once the line reaches the break: the focus waits in the packs
   * box, which stays, instead of falling to the page. */
  const add = (packs: number) => {
    document.getElementById(`qty-${l.sku}`)?.focus();
    onAddPacks(packs);
  };
  return (
    <tr data-sku={l.sku}>
      <td>
        <ProductImage src={l.small_img} alt="" width={48} height={48} /> <Link href={l.path}>{l.name}</Link>
        <br />
        <span className="muted">
          SKU {l.sku} · packs of {l.pack_size} · VAT {l.vat_rate}%
        </span>
        {l.short ? (
          <strong id={`short-${l.sku}`} className="basket-stock basket-short" data-short="true">
            {shortLineText(l.availability)}
          </strong>
        ) : l.delivery_from ? (
          <span className="basket-stock stock-preorder" data-stock="preorder">
            {preOrderText(l.delivery_from)} (order by {longDate(l.order_by)})
          </span>
        ) : (
          l.availability && (
            <span className={`basket-stock ${availabilityClass(l.availability)}`} data-stock={l.availability.status}>
              {availabilityText(l.availability)}
            </span>
          )
        )}
      </td>
      <td data-label="Unit price ex VAT">
        <PricedLineUnitPrice line={l} />
      </td>
      <td data-label="Packs">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onUpdate();
          }}
          className="qty-form"
          noValidate
        >
          <label htmlFor={`qty-${l.sku}`} className="sr-only">
            Packs of {l.name}
          </label>
          <input
            id={`qty-${l.sku}`}
            type="number"
            min={0}
            step={1}
            value={packs}
            aria-invalid={boxError || l.short ? true : undefined}
            aria-describedby={boxError ? `qty-${l.sku}-error` : l.short ? `short-${l.sku}` : undefined}
            onChange={(e) => onType(e.target.value)}
          />
          <button type="submit" className="button">
            Update
          </button>
        </form>
        {boxError && (
          <p id={`qty-${l.sku}-error`} className="field-error" role="alert">
            {boxError}
          </p>
        )}
        <span className="muted">{l.quantity} units</span>
        {nudge && (
          <p className="basket-nudge" data-add-packs={nudge.add_packs}>
            <span id={`nudge-${l.sku}`}>{nudgeText(nudge)}</span>{' '}
            <button type="button" className="button" aria-describedby={`nudge-${l.sku}`} onClick={() => add(nudge.add_packs)}>
              Add {nudge.add_packs} {nudge.add_packs === 1 ? 'pack' : 'packs'}
            </button>
          </p>
        )}
      </td>
      <td className="line-amount" data-label="Line ex VAT">
        {formatPence(l.line_amount)}
      </td>
      <td className="line-remove">
        <button type="button" className="link-button" onClick={onRemove} aria-label={`Remove ${l.name}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}
