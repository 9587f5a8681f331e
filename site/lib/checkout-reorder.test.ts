import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { path: string; body: unknown; csrf?: boolean }[] = [];
let answer: unknown = null;
const cartUpdated = vi.fn();
vi.mock('./account-store', () => ({ idToken: async () => 'id-token', setCartUpdated: () => cartUpdated() }));
vi.mock('./api', () => ({
  apiFetch: async (path: string, opts: { body?: unknown; csrf?: boolean }) => {
    calls.push({ path, body: opts.body, csrf: opts.csrf });
    return answer;
  },
  apiFetchBlob: async () => new Blob(),
}));

const { reorder } = await import('./checkout');

beforeEach(() => {
  calls.length = 0;
  cartUpdated.mockClear();
});

describe('reorder', () => {
  it('puts back the whole order without skus, and only the chosen lines with them', async () => {
    answer = { added: ['Robin cards'], unavailable: [], basket_full: [] };
    await reorder('TS-100042');
    await reorder('TS-100042', ['XM-1', 'BK-2']);
    expect(calls).toEqual([
      { path: '/api/orders/TS-100042/reorder', body: { token: 'id-token' }, csrf: true },
      { path: '/api/orders/TS-100042/reorder', body: { token: 'id-token', skus: ['XM-1', 'BK-2'] }, csrf: true },
    ]);
    expect(cartUpdated).toHaveBeenCalledTimes(2);
  });

  it('answers empty lists for what the answer leaves out', async () => {
    answer = { added: ['Robin cards'] };
    await expect(reorder('TS-100042', ['XM-1'])).resolves.toEqual({ added: ['Robin cards'], unavailable: [], basket_full: [] });
  });
});
