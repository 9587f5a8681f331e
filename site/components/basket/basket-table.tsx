import type { BasketLine } from '@/lib/basket';
import { BasketLineRow } from './basket-line-row';

/** The basket's lines as a table, each with its packs box, its nudge to the next break and
 * Remove. */
export function BasketTable({
  lines,
  packs,
  boxErrors,
  onType,
  onUpdate,
  onRemove,
  onAddPacks,
}: {
  lines: BasketLine[];
  /** What each packs box holds, by SKU. */
  packs: Record<string, string>;
  /** Each packs box's own problem, by SKU. */
  boxErrors: Record<string, string>;
  onType: (sku: string, value: string) => void;
  onUpdate: (sku: string, packSize: number) => void;
  onRemove: (sku: string) => void;
  onAddPacks: (sku: string, packs: number) => void;
}) {
  return (
    <table className="basket-table">
      <caption className="sr-only">Your basket</caption>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Unit price ex VAT</th>
          <th scope="col">Packs</th>
          <th scope="col">Line ex VAT</th>
          <th scope="col">
            <span className="sr-only">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <BasketLineRow
            key={l.sku}
            line={l}
            packs={packs[l.sku] ?? ''}
            boxError={boxErrors[l.sku]}
            onType={(value) => onType(l.sku, value)}
            onUpdate={() => onUpdate(l.sku, l.pack_size)}
            onRemove={() => onRemove(l.sku)}
            onAddPacks={(n) => onAddPacks(l.sku, n)}
          />
        ))}
      </tbody>
    </table>
  );
}
