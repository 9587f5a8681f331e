import { describe, expect, it, vi } from 'vitest';
import type { AccountState } from './account-store';

const answers: ((v: unknown) => void)[] = [];
vi.mock('./api', () => ({ apiFetch: () => new Promise((r) => answers.push(r)) }));

/** A stand-in for the account store: the state and its listeners, which the test moves. */
const account = vi.hoisted(() => ({ user: 0 as AccountState['user'], listeners: new Set<() => void>() }));
vi.mock('./account-store', () => ({
  idToken: async () => 't',
  accountState: () => ({ user: account.user }),
  subscribeAccount: (fn: () => void) => {
    account.listeners.add(fn);
    return () => account.listeners.delete(fn);
  },
}));
function becomes(user: AccountState['user']) {
  account.user = user;
  for (const fn of account.listeners) fn();
}

const { clearOwnPrices, ownPrice, requestOwnPrice } = await import('./own-prices');
const price = { list_price: 100, unit_price: 95, discount_percent: 5, pack_size: 6, pack_price: 570, pack_price_inc_vat: 684 };

describe('own prices', () => {
  it('batches the SKUs of one render and keeps their prices', async () => {
    requestOwnPrice('A');
    requestOwnPrice('B');
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    answers.shift()!({ prices: { A: price, B: price } });
    await vi.waitFor(() => expect(ownPrice('B')).toEqual(price));
  });

  it('does not keep prices that answer after sign-out', async () => {
    clearOwnPrices();
    requestOwnPrice('C');
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    clearOwnPrices(); // the buyer signs out while the call is in flight
    answers.shift()!({ prices: { C: price } });
    await new Promise((r) => setTimeout(r, 10));
    expect(ownPrice('C')).toBeUndefined();
  });

  it('forgets the prices when the account store says the buyer left, and not on other changes', async () => {
    becomes({ uid: 'u1', email: 'a@example.com', displayName: 'A' });
    requestOwnPrice('D');
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    answers.shift()!({ prices: { D: price } });
    await vi.waitFor(() => expect(ownPrice('D')).toEqual(price));
    becomes({ uid: 'u1', email: 'new@example.com', displayName: 'A' }); // the same buyer, a new email
    expect(ownPrice('D')).toEqual(price);
    becomes(0);
    expect(ownPrice('D')).toBeUndefined();
  });
});
