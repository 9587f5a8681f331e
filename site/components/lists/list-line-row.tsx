'use client';
import Link from '@/components/app/link';
import type { FormEvent } from 'react';
import { ProductImage } from '@/components/catalogue/product-image';
import { PreOrderNote, usePreOrderText } from '@/components/catalogue/pre-order-note';
import { availabilityClass, availabilityText } from '@/lib/availability';
import { formatPence } from '@/lib/format';
import { packsText, packsToOffer, type ListLine } from '@/lib/lists';

/** One line of a saved list: the product (a link to it, its image, SKU, pack size and
 * availability), the buyer's pack price, the packs box with Update, Remove, and the line's
 * problem when it cannot be bought as it stands, with the whole packs it could be instead. */
export function ListLineRow({
  line: l,
  packs,
  boxError,
  onType,
  onUpdate,
  onSetPacks,
  onRemove,
}: {
  line: ListLine;
  packs: string;
  boxError: string;
  onType: (text: string) => void;
  onUpdate: () => void;
  onSetPacks: (n: number) => void;
  onRemove: () => void;
}) {
  const p = l.product;
  // A forward product says when to pre-order instead of its stock (docs/forward-orders.md).
  const preText = usePreOrderText(p?.forward, p?.availability.status !== 'out');
  const name = p?.name || l.sku;
  const boxId = `list-qty-${l.sku}`;
  const problemId = `list-problem-${l.sku}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onUpdate();
  };
  const offers = p ? packsToOffer(l.problem, p.pack_size) : [];
  return (
    <tr data-sku={l.sku} data-problem={l.problem?.code}>
      <td>
        {p ? (
          <>
            <ProductImage src={p.small_img} alt="" width={48} height={48} /> <Link href={p.path}>{p.name}</Link>
            <br />
            <span className="muted">
              SKU {l.sku} · packs of {p.pack_size}
            </span>
            {preText ? (
              <PreOrderNote lines={preText} as="span" className="basket-stock" />
            ) : (
              <span className={`basket-stock ${availabilityClass(p.availability)}`} data-stock={p.availability.status}>
                {availabilityText(p.availability)}
              </span>
            )}
          </>
        ) : (
          <>
            {l.sku}
            <br />
            <span className="muted">SKU {l.sku}</span>
          </>
        )}
        {l.problem && (
          <span id={problemId} className="basket-stock basket-short list-problem" data-code={l.problem.code}>
            {l.problem.message}
          </span>
        )}
        {offers.length > 0 && (
          <span className="list-offers">
            {offers.map((n) => (
              <button key={n} type="button" className="link-button" onClick={() => onSetPacks(n)} aria-label={`Change ${name} to ${packsText(n)}`}>
                Change to {packsText(n)}
              </button>
            ))}
          </span>
        )}
      </td>
      <td data-label="Your pack price ex VAT">{p ? formatPence(p.pack_price) : '–'}</td>
      <td data-label="Packs">
        {p ? (
          <>
            <form onSubmit={submit} className="qty-form" noValidate>
              <label htmlFor={boxId} className="sr-only">
                Packs of {name}
              </label>
              <input
                id={boxId}
                type="number"
                min={0}
                step={1}
                value={packs}
                aria-invalid={boxError || l.problem ? true : undefined}
                aria-describedby={boxError ? `${boxId}-error` : l.problem ? problemId : undefined}
                onChange={(e) => onType(e.target.value)}
              />
              <button type="submit" className="button">
                Update
              </button>
            </form>
            {boxError && (
              <p id={`${boxId}-error`} className="field-error" role="alert">
                {boxError}
              </p>
            )}
            <span className="muted">{l.quantity} units</span>
          </>
        ) : (
          <span className="muted">{l.quantity} units</span>
        )}
      </td>
      <td className="line-remove">
        <button type="button" className="link-button" onClick={onRemove} aria-label={`Remove ${name}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}
