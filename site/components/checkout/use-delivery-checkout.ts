'use client';
import { useEffect, useState } from 'react';
import { getBasket, type Basket } from '@/lib/basket';
import { checkoutInfo, emptyAddress, loadDraft, saveDraft, type Address, type CheckoutInfo } from '@/lib/checkout';

/** What the buyer chose on the delivery step, kept across a refresh (lib/checkout.ts
 * drafts): where to, which option, and the note. */
export interface DeliveryDraft {
  sameAsBilling: boolean;
  address: Address;
  option: string;
  note: string;
  /** For the basket's pre-order lines: cancel what a short delivery cannot fill rather than
   * backorder it (docs/forward-orders.md). Absent in drafts kept before it was asked. */
  noBackorders?: boolean;
}

/** The delivery step's data: the server's checkout quote and the basket, loaded together
 * (again on retry), and the buyer's draft, restored once they have arrived. */
export function useDeliveryCheckout() {
  const [info, setInfo] = useState<CheckoutInfo | null>(null);
  const [basket, setBasket] = useState<Basket | null>(null);
  const [draft, setDraft] = useState<DeliveryDraft>({ sameAsBilling: true, address: emptyAddress(), option: 'standard', note: '' });
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all([checkoutInfo(), getBasket()])
      .then(([i, b]) => {
        if (!live) return;
        setInfo(i);
        setBasket(b);
        const saved = loadDraft<DeliveryDraft>('delivery');
        if (saved) setDraft(saved);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [attempt]);

  return {
    info,
    basket,
    draft,
    failed,
    /** Changes the draft and keeps it. */
    update: (next: DeliveryDraft) => {
      setDraft(next);
      saveDraft('delivery', next);
    },
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
    /** Shows the basket as it is now (a line may have become short, or it changed). */
    reloadBasket: () => void getBasket().then(setBasket, () => {}),
  };
}
