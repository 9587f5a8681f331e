import { describe, expect, it } from 'vitest';
import { packsBoxes, type Basket, type BasketLine } from './basket';

const line = (sku: string, packs: number, packSize = 6): BasketLine => ({
  id: sku, sku, name: sku, path: '/', small_img: '', pack_size: packSize, quantity: packs * packSize,
  unit_price: 100, discount_percent: 0, line_amount: 0, vat_rate: 20, vat: 0, in_stock: true,
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
