'use client';
import { useRef, useState } from 'react';
import { useAccount } from '@/components/account/use-account';
import { apiErrorText } from '@/lib/api';
import { addManyToBasket } from '@/lib/basket';
import { SignedOutAddAll } from '@/components/catalogue/signed-out';

/** Grid ordering: adds every product of the grid that has a quantity typed in, in one
 * all-or-nothing request, then clears the quantities. */
export function AddAllToBasket() {
  const account = useAccount();
  const button = useRef<HTMLButtonElement>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  if (account.user === 0) return <SignedOutAddAll />;

  async function addAll() {
    const forms = [...(button.current?.closest('.grid-order')?.querySelectorAll<HTMLFormElement>('form.add-to-basket') ?? [])];
    const picked = forms
      .map((f) => ({ f, packs: Number(f.querySelector('input')?.value || '0'), sku: f.dataset.sku!, packSize: Number(f.dataset.pack) }))
      .filter((x) => x.packs > 0);
    if (picked.some((x) => !Number.isInteger(x.packs))) {
      setStatus({ ok: false, text: 'Quantities must be whole numbers of packs.' });
      return;
    }
    if (picked.length === 0) {
      setStatus({ ok: false, text: 'Type a number of packs against the products you want first.' });
      return;
    }
    setBusy(true);
    try {
      await addManyToBasket(picked.map((x) => ({ sku: x.sku, quantity: x.packs * x.packSize })));
      for (const x of picked) x.f.querySelector('input')!.value = '';
      setStatus({ ok: true, text: `Added ${picked.length} ${picked.length === 1 ? 'line' : 'lines'} to your basket.` });
    } catch (err) {
      setStatus({ ok: false, text: apiErrorText(err, 'Could not add. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="add-all">
      <button ref={button} type="button" className="button" onClick={() => void addAll()} disabled={busy}>
        Add all to basket
      </button>
      {status && (
        <p className={status.ok ? 'add-ok' : 'add-error'} role="status">
          {status.text}
        </p>
      )}
    </div>
  );
}
