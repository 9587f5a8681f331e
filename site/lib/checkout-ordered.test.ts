import { describe, expect, it, vi } from 'vitest';

const cart = vi.hoisted(() => ({ updated: 0 }));
vi.mock('./account-store', () => ({ idToken: async () => 't', setCartUpdated: () => cart.updated++ }));

/** sessionStorage as a Map, for Node. */
const stored = new Map<string, string>();
vi.stubGlobal('sessionStorage', {
  getItem: (k: string) => stored.get(k) ?? null,
  setItem: (k: string, v: string) => void stored.set(k, v),
  removeItem: (k: string) => void stored.delete(k),
});

const { checkoutKey, checkoutOrdered, loadDraft, saveDraft } = await import('./checkout');

describe('checkoutOrdered', () => {
  it("forgets the checkout's idempotency key and delivery draft, keeps the billing draft, and reloads the basket", () => {
    const key = checkoutKey();
    expect(checkoutKey()).toBe(key); // one key per checkout
    saveDraft('delivery', { note: 'Side door' });
    saveDraft('billing', { company: 'Harbour Gifts Ltd' });
    checkoutOrdered();
    expect(loadDraft('delivery')).toBeNull();
    expect(loadDraft('billing')).toEqual({ company: 'Harbour Gifts Ltd' });
    expect(cart.updated).toBe(1);
    expect(checkoutKey()).not.toBe(key); // the next checkout is a new order
  });
});
