'use client';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useAccount } from '@/components/account/use-account';
import { apiErrorText } from '@/lib/api';
import { availabilityClass, availabilityText } from '@/lib/availability';
import { addToBasket } from '@/lib/basket';
import { PreOrderNote, usePreOrderOpen, usePreOrderText } from '@/components/catalogue/pre-order-note';
import type { ActionsProps } from '@/components/catalogue/signed-out';
import { useOwnPrice } from './price';

/** Quantity in packs and an Add button for one product; Add with no quantity adds one
 * pack. In a grid the quantities start empty, so "Add all to basket" adds only what the
 * buyer typed. Signed in only: signed out, catalogue/signed-out.tsx's SignedOutActions
 * stands in its place.
 *
 * Availability comes from the API with the buyer's prices (the page is static):
 * out of stock, Add is disabled and says so; in a grid (showStock) a stock line shows "In
 * stock" / "Only N packs left" / "Out of stock", its space kept from the moment the form
 * appears so nothing moves when the answer arrives.
 *
 * A forward product whose pre-order is open (London's date, in the browser) can be added
 * whatever the stock, up to the line maximum the basket holds, and its stock line says when
 * to pre-order instead (PreOrderNote); after its order-by date it is an ordinary product,
 * and out of stock says pre-orders closed. */
export function AddToBasket({ sku, packSize, inStock, forward = null, name, inGrid = false, showStock = false }: ActionsProps) {
  const account = useAccount();
  const own = useOwnPrice(sku);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const preOrder = usePreOrderOpen(forward);
  const live = own?.availability;
  // Until the API answers, the build's stock stands.
  const out = !preOrder && (live ? live.status === 'out' : !inStock);
  const preText = usePreOrderText(forward, !out);
  // Signed out, ProductActions draws the signed-out form (catalogue/signed-out.tsx).
  if (account.user === 0) return null;
  async function add(e: FormEvent) {
    e.preventDefault();
    const n = Number(input.current?.value || '1');
    if (!Number.isInteger(n) || n < 1) {
      setStatus({ ok: false, text: 'Enter a whole number of packs.' });
      return;
    }
    setBusy(true);
    try {
      await addToBasket(sku, n * packSize);
      setStatus({ ok: true, text: `Added ${n} ${n === 1 ? 'pack' : 'packs'}` });
    } catch (err) {
      setStatus({ ok: false, text: apiErrorText(err, 'Could not add. Try again.') });
    } finally {
      setBusy(false);
    }
  }
  const stockLine = live ? availabilityText(live) : out ? 'Out of stock' : '';
  return (
    <>
      {showStock && preText && <PreOrderNote lines={preText} className="stock-line" />}
      {showStock && !preText && (
        <p
          className={`stock-line ${live ? availabilityClass(live) : out ? 'stock stock-out-of-stock' : ''}`}
          data-stock={live?.status ?? ''}
          aria-live="polite"
        >
          {stockLine}
        </p>
      )}
      {out ? (
        // No form: nothing can be added, and "Add all to basket" (which reads the forms) skips it.
        <div className="add-to-basket" data-sku={sku}>
          <button type="button" className="button" disabled>
            Out of stock
          </button>
        </div>
      ) : (
        <form className="add-to-basket" onSubmit={add} aria-label={`Add ${name} to basket`} data-sku={sku} data-pack={packSize}>
          <label htmlFor={id}>Packs of {packSize}</label>
          <input
            ref={input}
            id={id}
            type="number"
            inputMode="numeric"
            min={inGrid ? 0 : 1}
            step={1}
            defaultValue={inGrid ? '' : '1'}
            placeholder={inGrid ? '0' : undefined}
          />
          <button type="submit" className="button" disabled={busy}>
            Add
          </button>
          {status && (
            <p className={status.ok ? 'add-ok' : 'add-error'} role="status">
              {status.text}
            </p>
          )}
        </form>
      )}
    </>
  );
}
