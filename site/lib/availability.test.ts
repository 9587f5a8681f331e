import { describe, expect, it } from 'vitest';
import { availabilityClass, availabilityText, shortLineText } from './availability';

describe('availabilityText', () => {
  it('says in stock, only N packs left, or out of stock', () => {
    expect(availabilityText({ status: 'in_stock' })).toBe('In stock');
    expect(availabilityText({ status: 'low', packs_left: 3 })).toBe('Only 3 packs left');
    expect(availabilityText({ status: 'low', packs_left: 1 })).toBe('Only 1 pack left');
    expect(availabilityText({ status: 'out', packs_left: 0 })).toBe('Out of stock');
  });
  it('colours the line as the static page does', () => {
    expect(availabilityClass({ status: 'low', packs_left: 2 })).toBe('stock stock-low-stock');
    expect(availabilityClass({ status: 'out', packs_left: 0 })).toBe('stock stock-out-of-stock');
  });
});

describe('shortLineText', () => {
  it('tells the buyer what to do with a line that asks for more than is left', () => {
    expect(shortLineText({ status: 'low', packs_left: 2 })).toBe('Only 2 packs left: reduce this line');
    expect(shortLineText({ status: 'out', packs_left: 0 })).toBe('Out of stock: remove this line');
    // In stock (over 10 packs) comes without a count: no number is made up.
    expect(shortLineText({ status: 'in_stock' })).toBe('Not enough in stock for this quantity: reduce this line');
  });
});
