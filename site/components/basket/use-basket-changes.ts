'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { applyCoupon, getBasket, packsBoxes, packsOf, packsProblem, removeLine, setLine, type Basket } from '@/lib/basket';

const message = (err: unknown) => apiErrorText(err, 'Something went wrong. Please try again.');

/** The basket page's basket and the buyer's changes to it: it loads when a buyer is signed
 * in (uid), then each change (packs, remove, coupon) answers with the basket as it is now.
 * Changes can overlap and answer out of order: each takes a ticket and only the newest
 * change's basket is shown. The packs boxes keep what the buyer typed in one line while
 * another line's change was in flight (lib/basket.ts packsBoxes). */
export function useBasketChanges(uid: string) {
  const [basket, setBasket] = useState<Basket | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [packs, setPacks] = useState<Record<string, string>>({});
  /** A packs box's own problem, shown beside it, by SKU. */
  const [boxErrors, setBoxErrors] = useState<Record<string, string>>({});
  /** The basket on screen, and the ticket of the newest change. */
  const shown = useRef<Basket | null>(null);
  const ticket = useRef(0);

  const show = useCallback((b: Basket, submitted?: string) => {
    const before = shown.current;
    shown.current = b;
    setBasket(b);
    setPacks((typed) => packsBoxes(before, b, typed, submitted));
  }, []);

  const load = useCallback(() => {
    setError('');
    getBasket()
      .then(show)
      .catch(() => setError('There was a technical problem loading your basket.'));
  }, [show]);
  useEffect(() => {
    if (uid) load();
  }, [uid, load]);

  /** Makes one change and shows its basket (or the basket as it is, when the change answers
   * none), with done as the status line; sku names the line whose packs box was submitted. */
  async function run(work: () => Promise<Basket | void>, done: string, sku?: string) {
    const mine = ++ticket.current;
    setError('');
    setNotice('');
    try {
      const b = (await work()) ?? (await getBasket());
      if (mine !== ticket.current) return; // a later change answers with a newer basket
      show(b, sku);
      setNotice(done);
    } catch (err) {
      if (mine !== ticket.current) return;
      setError(message(err));
      // Earlier changes may have been dropped for this one: show the basket as it is.
      getBasket()
        .then((b) => mine === ticket.current && show(b))
        .catch(() => {});
    }
  }

  /** Sets a line to the packs typed in its box, or shows the box's problem. */
  function updatePacks(sku: string, packSize: number) {
    const typed = packs[sku] ?? '';
    const problem = packsProblem(typed);
    setBoxErrors(({ [sku]: _, ...others }) => (problem ? { ...others, [sku]: problem } : others));
    if (problem) {
      // The line is unchanged: its box shows its packs again, the problem names what was typed.
      const line = basket?.lines.find((l) => l.sku === sku);
      if (line) setPacks((boxes) => ({ ...boxes, [sku]: packsOf(line) }));
      return;
    }
    const n = Number(typed);
    void run(() => setLine(sku, n * packSize), n === 0 ? 'Line removed.' : 'Quantity updated.', sku);
  }

  /** Adds packs to a line (a quantity break's nudge), through the same change as its box. */
  function addPacks(sku: string, n: number) {
    const line = shown.current?.lines.find((l) => l.sku === sku);
    if (!line) return;
    void run(() => setLine(sku, line.quantity + n * line.pack_size), `Added ${n} ${n === 1 ? 'pack' : 'packs'}.`, sku);
  }

  return {
    basket,
    error,
    notice,
    load,
    packs,
    boxErrors,
    typePacks: (sku: string, value: string) => setPacks((typed) => ({ ...typed, [sku]: value })),
    updatePacks,
    addPacks,
    removeLine: (sku: string) => void run(() => removeLine(sku), 'Line removed.', sku),
    applyCoupon: (code: string) => void run(() => applyCoupon(code), 'Coupon applied.'),
    removeCoupon: () => void run(() => applyCoupon(''), 'Coupon removed.'),
  };
}
