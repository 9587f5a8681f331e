import { describe, expect, it } from 'vitest';
import { couponTerms, packsBoxes, packsProblem, shortReason, validUntil, type Basket, type BasketLine } from './basket';

const line = (sku: string, packs: number, packSize = 6): BasketLine => ({
  id: sku,
  sku,
  name: sku,
  path: '/',
  small_img: '',
  pack_size: packSize,
  quantity: packs * packSize,
  list_price: 100,
  unit_price: 100,
  discount_percent: 0,
  line_amount: 0,
  vat_rate: 20,
  vat: 0,
  in_stock: true,
  availability: { status: 'in_stock' },
  short: false,
  base_price: 100,
  break_from: null,
  break_price: 100,
  price_group: null,
  delivery_from: '',
  order_by: '',
  nudge: null,
  margin: null,
});
const basket = (...lines: BasketLine[]) => ({ lines }) as Basket;

describe('packsBoxes', () => {
  it('shows each line in packs when nothing was typed', () => {
    expect(packsBoxes(null, basket(line('A', 2), line('B', 3, 12)), {})).toEqual({ A: '2', B: '3' });
  });

  it('keeps a box typed in but not submitted, and shows the submitted line as saved', () => {
    const shown = basket(line('A', 2), line('B', 3));
    const next = basket(line('A', 5), line('B', 3));
    // A was typed as 5 and submitted; B was typed as 7 while A's update was in flight.
    expect(packsBoxes(shown, next, { A: '5', B: '7' }, 'A')).toEqual({ A: '5', B: '7' });
  });

  it('shows the saved packs where the buyer typed nothing, even when they changed', () => {
    const shown = basket(line('A', 2), line('B', 3));
    const next = basket(line('A', 2), line('B', 4));
    expect(packsBoxes(shown, next, { A: '2', B: '3' }, 'A')).toEqual({ A: '2', B: '4' });
  });

  it('drops boxes of removed lines and fills new ones', () => {
    const shown = basket(line('A', 2), line('B', 3));
    expect(packsBoxes(shown, basket(line('B', 3), line('C', 1)), { A: '0', B: '3' }, 'A')).toEqual({ B: '3', C: '1' });
  });
});

describe('packsProblem', () => {
  it('accepts whole numbers of packs, 0 included', () => {
    for (const ok of ['0', '1', ' 12 ', '1e3']) expect(packsProblem(ok), ok).toBe('');
  });

  it("says what is wrong with anything else, in the shop's words", () => {
    expect(packsProblem('1.5')).toBe('1.5 is not a whole number of packs. Enter a whole number (0 removes the line).');
    expect(packsProblem('')).toBe('Enter a number of packs (0 removes the line).');
    expect(packsProblem('-2')).toBe('Enter 0 or more packs (0 removes the line).');
    expect(packsProblem('ten')).toBe('ten is not a number of packs. Enter a whole number (0 removes the line).');
  });
});

describe('couponTerms', () => {
  it('words each kind of coupon from its terms', () => {
    const end = Date.parse('2028-01-01T00:00:00Z');
    expect(couponTerms({ active_coupon_id: 'TRADE10', kind: 'percent', percent: 10, valid_to: end })).toBe(
      'Terms: 10% off goods, valid until the end of 31 December 2027.',
    );
    expect(couponTerms({ active_coupon_id: 'WELCOME5', kind: 'fixed', amount: 500, min_spend: 5000, valid_to: end })).toBe(
      'Terms: £5.00 off orders of £50.00 or more ex VAT, valid until the end of 31 December 2027.',
    );
    expect(couponTerms({ active_coupon_id: 'BULK15', kind: 'percent', percent: 15, min_spend: 50000 })).toBe(
      'Terms: 15% off goods on orders of £500.00 or more ex VAT.',
    );
    expect(couponTerms({ active_coupon_id: 'FIVER', kind: 'fixed', amount: 500 })).toBe('Terms: £5.00 off goods.');
  });

  it('gives the last day of a coupon that stops at UK midnight, else the time it stops', () => {
    expect(validUntil(Date.parse('2027-06-30T23:00:00Z'))).toBe('the end of 30 June 2027'); // midnight BST
    expect(validUntil(Date.parse('2027-03-05T14:30:00Z'))).toBe('14:30 on 5 March 2027');
  });
});

describe('shortReason', () => {
  const stocked = (sku: string, short: boolean): BasketLine => ({
    ...line(sku, 2),
    short,
    availability: short ? { status: 'low', packs_left: 1 } : { status: 'in_stock' },
  });
  it('says why the basket cannot go on while lines ask for more than is in stock', () => {
    expect(shortReason(basket(stocked('A', false)))).toBe('');
    expect(shortReason(basket(stocked('A', true), stocked('B', false)))).toBe(
      'One line asks for more than we have in stock: reduce or remove the line marked above to continue.',
    );
    expect(shortReason(basket(stocked('A', true), stocked('B', true)))).toBe(
      '2 lines ask for more than we have in stock: reduce or remove the lines marked above to continue.',
    );
  });
});
