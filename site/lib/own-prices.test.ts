import { describe, expect, it, vi } from 'vitest';

const answers: ((v: unknown) => void)[] = [];
vi.mock('./api', () => ({ apiFetch: () => new Promise((r) => answers.push(r)) }));
vi.mock('./account-store', () => ({ idToken: async () => 't' }));

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
});
