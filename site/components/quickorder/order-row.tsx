'use client';
import Link from '@/components/app/link';
import type { FocusEvent } from 'react';
import { ProductImage } from '@/components/catalogue/product-image';
import { PreOrderNote, usePreOrderText } from '@/components/catalogue/pre-order-note';
import { availabilityClass, availabilityText } from '@/lib/availability';
import { formatPence } from '@/lib/format';
import { marginText } from '@/lib/price-breaks';
import type { SkuProduct } from '@/lib/quick-order';
import { isEmptyRow, rowProduct, type Row, type RowStatus } from '@/lib/quick-order-rows';
import { LineProblemText } from './line-problem';
import { SkuBox } from './sku-box';

export interface RowActions {
  setSku: (key: number, sku: string) => void;
  setPacks: (key: number, packs: string) => void;
  pick: (key: number, p: SkuProduct) => void;
  setUnits: (key: number, units: number) => void;
  remove: (key: number) => void;
  /** Enter in the packs box: go on to the next row. */
  next: (key: number) => void;
  /** The focus left the row: check it. */
  left: () => void;
}

export const skuBoxId = (key: number) => `qo-sku-${key}`;
export const packsBoxId = (key: number) => `qo-packs-${key}`;

/** The problems a different quantity fixes. */
const QUANTITY_PROBLEMS = new Set(['packs', 'short', 'over_limit']);

const packs = (n: number) => `${n} ${n === 1 ? 'pack' : 'packs'}`;

/** One line of the quick order: SKU (with suggestions) and packs, the product as the
 * last check found it, and what stops it being added, with the fixes offered. */
export function OrderRow({ row, status, line, actions }: { row: Row; status: RowStatus; line: number; actions: RowActions }) {
  const product = rowProduct(row);
  // A forward product says when to pre-order instead of its stock (docs/forward-orders.md).
  const preText = usePreOrderText(product?.forward, product?.availability.status !== 'out');
  const problemId = `qo-problem-${row.key}`;
  const message = status.kind === 'invalid' ? status.message : '';
  const problem = status.kind === 'problem' ? status.problem : null;
  const described = message || problem ? problemId : undefined;
  // The box the problem is about is marked: the quantity's, or else the product's.
  const aboutPacks = problem ? QUANTITY_PROBLEMS.has(problem.code) : status.kind === 'invalid' && status.field === 'packs';
  const badSku = !!(problem || message) && !aboutPacks;
  const badPacks = aboutPacks;
  const onBlur = (e: FocusEvent<HTMLTableRowElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) actions.left();
  };
  return (
    <tr data-sku={product?.sku ?? row.sku.trim().toUpperCase()} data-status={status.kind} onBlur={onBlur}>
      <td className="qo-line muted">{line}</td>
      <td data-label="SKU" className="qo-sku">
        <SkuBox
          id={skuBoxId(row.key)}
          label={`SKU, line ${line}`}
          value={row.sku}
          invalid={badSku}
          describedBy={described}
          onChange={(t) => actions.setSku(row.key, t)}
          onPick={(p) => {
            actions.pick(row.key, p);
            document.getElementById(packsBoxId(row.key))?.focus();
          }}
          onEnter={() => document.getElementById(packsBoxId(row.key))?.focus()}
        />
      </td>
      <td data-label="Packs" className="qo-packs">
        <label htmlFor={packsBoxId(row.key)} className="sr-only">
          Packs, line {line}
        </label>
        <input
          id={packsBoxId(row.key)}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={row.packs}
          placeholder={row.units > 0 ? '' : '0'}
          aria-invalid={badPacks || undefined}
          aria-describedby={[row.units > 0 && `qo-units-${row.key}`, described].filter(Boolean).join(' ') || undefined}
          onChange={(e) => actions.setPacks(row.key, e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            actions.next(row.key);
          }}
        />
        {row.units > 0 && (
          <span id={`qo-units-${row.key}`} className="muted qo-units">
            {row.packs.trim() ? '+ ' : ''}
            {row.units} {row.units === 1 ? 'unit' : 'units'} as given
          </span>
        )}
      </td>
      <td className="qo-product">
        {product && (
          <>
            <ProductImage src={product.small_img} alt="" width={40} height={40} /> <Link href={product.path}>{product.name}</Link>
            <br />
            <span className="muted">
              Packs of {product.pack_size}
              {product.in_basket > 0 && ` · ${packs(product.in_basket / product.pack_size)} in your basket`}
            </span>{' '}
            {preText ? (
              <PreOrderNote lines={preText} as="span" className="qo-stock" />
            ) : (
              <span className={`qo-stock ${availabilityClass(product.availability)}`} data-stock={product.availability.status}>
                {availabilityText(product.availability)}
              </span>
            )}
          </>
        )}
        {status.kind === 'checking' && <span className="muted qo-checking">Checking…</span>}
        {status.kind === 'no-quantity' && <span className="muted"> Enter the number of packs.</span>}
        {message && (
          <p id={problemId} className="field-error">
            {message}
          </p>
        )}
        {problem && <LineProblemText id={problemId} problem={problem} packSize={product?.pack_size} onUnits={(u) => actions.setUnits(row.key, u)} />}
      </td>
      <td data-label="Your price" className="qo-price">
        {product && (
          <>
            <span className="pack-price">{formatPence(product.pack_price)}</span> <span className="muted">a pack</span>
            {product.discount_percent > 0 && (
              <span className="muted">
                {' '}
                ({product.discount_percent}% off{product.base_price !== product.list_price && ` your group price ${formatPence(product.base_price)}`})
              </span>
            )}
            {product.margin && (
              <>
                <br />
                <span className="muted qo-margin">{marginText(product.margin, true)}</span>
              </>
            )}
            {status.kind === 'good' && row.lineAmount !== null && (
              <>
                <br />
                <span className="qo-line-amount">
                  Line <strong>{formatPence(row.lineAmount)}</strong>
                </span>
              </>
            )}
          </>
        )}
      </td>
      <td className="qo-remove">
        {!isEmptyRow(row) && (
          <button type="button" className="link-button" onClick={() => actions.remove(row.key)} aria-label={`Remove line ${line}`}>
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}
