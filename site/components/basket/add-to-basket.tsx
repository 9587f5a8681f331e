'use client';
import Link from 'next/link';
import { useId, useState, type FormEvent } from 'react';
import { useAccount } from '@/components/account/use-account';
import { ApiError } from '@/lib/api';
import { addToBasket } from '@/lib/basket';

/** Quantity in packs and an Add button for one product. Signed out, it offers sign-in. */
export function AddToBasket({ sku, packSize, inStock, name }: { sku: string; packSize: number; inStock: boolean; name: string }) {
  const account = useAccount();
  const id = useId();
  const [packs, setPacks] = useState('1');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!inStock) return null;
  if (account.user === 0) {
    return account.status === 'ready' ? (
      <p className="add-signin">
        <Link href="/account/login/">Sign in</Link> to order
      </p>
    ) : null;
  }
  async function add(e: FormEvent) {
    e.preventDefault();
    const n = Number(packs);
    if (!Number.isInteger(n) || n < 1) {
      setStatus({ ok: false, text: 'Enter a whole number of packs.' });
      return;
    }
    setBusy(true);
    try {
      await addToBasket(sku, n * packSize);
      setStatus({ ok: true, text: `Added ${n} ${n === 1 ? 'pack' : 'packs'}` });
    } catch (err) {
      setStatus({ ok: false, text: err instanceof ApiError ? (Object.values(err.problems ?? {})[0] ?? err.message) : 'Could not add. Try again.' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="add-to-basket" onSubmit={add} aria-label={`Add ${name} to basket`}>
      <label htmlFor={id}>Packs of {packSize}</label>
      <input id={id} type="number" inputMode="numeric" min={1} step={1} value={packs} onChange={(e) => setPacks(e.target.value)} />
      <button type="submit" className="button" disabled={busy}>
        Add
      </button>
      {status && (
        <p className={status.ok ? 'add-ok' : 'add-error'} role="status">
          {status.text}
        </p>
      )}
    </form>
  );
}
