import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiOptions } from './api';

const calls: { path: string; opts: ApiOptions }[] = [];
let answer: unknown = null;
const cartUpdated = vi.fn();
vi.mock('./account-store', () => ({ idToken: async () => 'id-token', setCartUpdated: () => cartUpdated() }));
vi.mock('./api', async (actual) => ({
  ...(await actual<typeof import('./api')>()),
  apiFetch: async (path: string, opts: ApiOptions) => {
    calls.push({ path, opts });
    return answer;
  },
}));

const lists = await import('./lists');
const {
  addAllReport,
  changedText,
  createList,
  deleteList,
  getList,
  getLists,
  linesText,
  listHref,
  listNameProblem,
  listToBasket,
  packsLines,
  packsText,
  packsToOffer,
  summaryOf,
  unitsOf,
  updateList,
} = lists;
type SavedList = import('./lists').SavedList;
type ProductSummary = import('./lists').ProductSummary;

const product = (sku: string, packSize = 6): ProductSummary => ({
  sku,
  name: `Product ${sku}`,
  path: `/p/${sku}/`,
  small_img: '',
  forward: null,
  pack_size: packSize,
  list_price: 45,
  base_price: 45,
  unit_price: 41,
  discount_percent: 10,
  pack_price: 246,
  availability: { status: 'in_stock' },
  line_limit: 120,
  in_basket: 0,
  margin: null,
  breaks: [],
});
const list: SavedList = {
  id: 'L1',
  name: 'Christmas counter',
  updated_at: Date.UTC(2026, 10, 24, 12),
  lines: [
    { sku: 'A', quantity: 12, product: product('A'), problem: null },
    { sku: 'GONE', quantity: 5, product: null, problem: { code: 'unknown', message: 'no product has this SKU' } },
    { sku: 'B', quantity: 10, product: product('B'), problem: { code: 'packs', message: '10 is not a whole number of packs of 6', nearest: [6, 12] } },
  ],
};

beforeEach(() => {
  calls.length = 0;
  answer = null;
  cartUpdated.mockClear();
});

describe('listNameProblem', () => {
  it('takes 1 to 60 characters, counted once trimmed', () => {
    for (const ok of ['A', 'Weekly cards', ` ${'x'.repeat(60)} `, 'Café ✓ 🎄']) expect(listNameProblem(ok), ok).toBeNull();
  });

  it('refuses an empty or blank name and one over 60 characters', () => {
    for (const bad of ['', '   ', 'x'.repeat(61)]) expect(listNameProblem(bad), bad).toBe('Enter a name for the list (1 to 60 characters).');
  });

  it('counts characters, not UTF-16 units, as the server does', () => {
    expect(listNameProblem('🎄'.repeat(60))).toBeNull();
    expect(listNameProblem('e\u0301'.repeat(60))).toBeNull(); // NFC: one character each
  });

  it('refuses what the text rule refuses', () => {
    expect(listNameProblem('Weekly\tcards')).toBe('List name must not contain control characters such as tabs or line breaks.');
    expect(listNameProblem('Weekly\u200bcards')).toBe('List name must not contain invisible characters such as zero-width spaces or text-direction controls.');
  });
});

describe('words and numbers', () => {
  it('says lines and packs in the singular and plural', () => {
    expect([linesText(0), linesText(1), linesText(3)]).toEqual(['0 lines', '1 line', '3 lines']);
    expect([packsText(1), packsText(2)]).toEqual(['1 pack', '2 packs']);
  });

  it('counts units as packs × pack size', () => {
    expect(unitsOf(3, 6)).toBe(18);
    expect(unitsOf(0, 12)).toBe(0);
  });

  it('links to a list by its id, escaped', () => {
    expect(listHref('L1')).toBe('/account/lists/?id=L1');
    expect(listHref('a b&c')).toBe('/account/lists/?id=a%20b%26c');
  });

  it('gives the UK date a list last changed, from Unix ms or RFC 3339, and nothing for a value it cannot read', () => {
    expect(changedText(Date.UTC(2026, 10, 24, 12))).toBe('24 November 2026');
    expect(changedText('2026-06-30T23:30:00Z')).toBe('1 July 2026'); // 00:30 BST
    expect(changedText('not a time')).toBe('');
  });

  it('summarises a list for the index', () => {
    expect(summaryOf(list)).toEqual({ id: 'L1', name: 'Christmas counter', lines: 3, updated_at: list.updated_at });
  });

  it('gives the packs boxes the lines that have a product', () => {
    expect(packsLines(list)).toEqual([
      { sku: 'A', quantity: 12, pack_size: 6 },
      { sku: 'B', quantity: 10, pack_size: 6 },
    ]);
  });
});

describe('packsToOffer', () => {
  it('offers the whole packs either side of a part pack', () => {
    expect(packsToOffer({ code: 'packs', message: '', nearest: [6, 12] }, 6)).toEqual([1, 2]);
    expect(packsToOffer({ code: 'packs', message: '', nearest: [6] }, 6)).toEqual([1]); // the lower was 0
  });

  it('offers what can still be added of a short or over-limit line', () => {
    expect(packsToOffer({ code: 'short', message: '', available: 18 }, 6)).toEqual([3]);
    expect(packsToOffer({ code: 'over_limit', message: '', available: 120 }, 12)).toEqual([10]);
  });

  it('offers nothing when nothing can be added or the problem is not a quantity', () => {
    expect(packsToOffer({ code: 'short', message: '', available: 0 }, 6)).toEqual([]);
    expect(packsToOffer({ code: 'out_of_stock', message: '' }, 6)).toEqual([]);
    expect(packsToOffer({ code: 'discontinued', message: '' }, 6)).toEqual([]);
    expect(packsToOffer(null, 6)).toEqual([]);
  });
});

describe('addAllReport', () => {
  it('says how many lines were added and each line not added with its reason, as the API sent it', () => {
    const r = addAllReport({
      added: [
        { sku: 'A', name: 'Robin cards', quantity: 12 },
        { sku: 'B', name: 'Gift wrap', quantity: 6 },
      ],
      unavailable: [
        { sku: 'C', name: 'Snow globe', code: 'out_of_stock', message: 'Snow globe is out of stock.' },
        { sku: 'D', name: '', code: 'unknown', message: 'There is no product with SKU D.' },
      ],
    });
    expect(r).toEqual({
      added: 'Added 2 lines to your basket.',
      unavailable: [
        { sku: 'C', text: 'Snow globe: Snow globe is out of stock.' },
        { sku: 'D', text: 'D: There is no product with SKU D.' },
      ],
    });
  });

  it('says so when nothing was added', () => {
    expect(addAllReport({ added: [], unavailable: [] }).added).toBe('Nothing was added to your basket.');
    expect(addAllReport({ added: [{ sku: 'A', name: 'A', quantity: 1 }], unavailable: [] }).added).toBe('Added 1 line to your basket.');
  });
});

describe('the lists API calls (docs/quick-order.md)', () => {
  it('reads with the ID token as a bearer token', async () => {
    answer = { lists: [summaryOf(list)] };
    await expect(getLists()).resolves.toEqual([summaryOf(list)]);
    answer = { list };
    await expect(getList('L/1')).resolves.toEqual(list);
    expect(calls.map((c) => [c.path, c.opts.method, c.opts.headers?.Authorization, c.opts.csrf])).toEqual([
      ['/api/lists', 'GET', 'Bearer id-token', undefined],
      ['/api/lists/L%2F1', 'GET', 'Bearer id-token', undefined],
    ]);
  });

  it('writes with the CSRF token and the ID token in the body, in units', async () => {
    answer = { list };
    await createList('  Weekly cards ', { lines: [{ sku: 'A', quantity: unitsOf(2, 6) }] });
    await createList('From basket', { fromBasket: true });
    await updateList('L1', { add: [{ sku: 'A', quantity: 6 }] });
    await updateList('L1', { set: [{ sku: 'A', quantity: 0 }] });
    await updateList('L1', { name: 'Counter' });
    expect(calls.map((c) => [c.path, c.opts.method, c.opts.csrf, c.opts.body])).toEqual([
      ['/api/lists', undefined, true, { token: 'id-token', name: 'Weekly cards', lines: [{ sku: 'A', quantity: 12 }] }],
      ['/api/lists', undefined, true, { token: 'id-token', name: 'From basket', from_basket: true }],
      ['/api/lists/L1', undefined, true, { token: 'id-token', add: [{ sku: 'A', quantity: 6 }] }],
      ['/api/lists/L1', undefined, true, { token: 'id-token', set: [{ sku: 'A', quantity: 0 }] }],
      ['/api/lists/L1', undefined, true, { token: 'id-token', name: 'Counter' }],
    ]);
  });

  it("takes a write's list wrapped as GET answers it, or bare", async () => {
    answer = { list };
    await expect(updateList('L1', { name: 'x' })).resolves.toEqual(list);
    answer = list;
    await expect(createList('x')).resolves.toEqual(list);
  });

  it('deletes with DELETE, the bearer token and the CSRF token', async () => {
    answer = { deleted: 'L1' };
    await deleteList('L1');
    expect(calls).toEqual([{ path: '/api/lists/L1', opts: { method: 'DELETE', csrf: true, headers: { Authorization: 'Bearer id-token' } } }]);
  });

  it('adds a list to the basket and has the basket widget reload', async () => {
    answer = { added: [], unavailable: [], lines: 0 };
    await listToBasket('L1');
    expect(calls.map((c) => [c.path, c.opts.csrf, c.opts.body])).toEqual([['/api/lists/L1/basket', true, { token: 'id-token' }]]);
    expect(cartUpdated).toHaveBeenCalledOnce();
  });
});
