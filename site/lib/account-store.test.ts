import { describe, expect, it } from 'vitest';
import { buyerName, initialAccountState, isEmptyCart, showViewYourBasket, type AccountState, type CartLine } from './account-store';

const line: CartLine = {
  id: 'GC101-00001',
  sku: 'GC101-00001',
  quantity: 6,
  line_amount: 720,
  product: { name: 'Christmas card', small_img: '/img/s/GC101-00001.webp', pack_size: 6 },
};
const base: AccountState = { ...initialAccountState, status: 'ready' };
const user = { uid: 'u1', email: 'a@b.co', displayName: 'A' };

describe('account state rules', () => {
  it('treats a first row with id 1 as an empty basket', () => {
    expect(isEmptyCart([{ id: 1 }])).toBe(true);
    expect(isEmptyCart([])).toBe(true);
    expect(isEmptyCart([line])).toBe(false);
  });

  it('shows View Your Basket only to a signed-in user with lines or in checkout', () => {
    expect(showViewYourBasket(base, '/')).toBe(false);
    expect(showViewYourBasket({ ...base, user }, '/')).toBe(false);
    expect(showViewYourBasket({ ...base, user, basket: 'populated', cart: [line] }, '/')).toBe(true);
    expect(showViewYourBasket({ ...base, user }, '/checkout/billing/')).toBe(true);
    expect(showViewYourBasket({ ...base, basket: 'populated', cart: [line] }, '/checkout/basket/')).toBe(false);
  });

  it('names a buyer by business, else display name, else email', () => {
    const profile = { business: 'Meadow Cards', email: user.email, telephone: '', optInMarketing: 0, active_coupon_id: '', dsc: '' };
    expect(buyerName({ ...base, user, profile })).toBe('Meadow Cards');
    expect(buyerName({ ...base, user, profile: { ...profile, business: '' } })).toBe('A');
    expect(buyerName({ ...base, user: { ...user, displayName: '' } })).toBe('a@b.co');
    expect(buyerName(base)).toBe('');
  });
});
