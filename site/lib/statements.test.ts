import { describe, expect, it } from 'vitest';
import type { BalanceAnswer } from './api-types';
import { showsStatement, sortBalances } from './statements';

const row = (uid: string, business: string, balance: number, overdue: number, days: number): BalanceAnswer => ({
  uid,
  business,
  balance,
  due: balance,
  overdue,
  unallocated: 0,
  oldest_overdue_days: days,
  ageing: [],
});

describe('sortBalances', () => {
  const list = [row('a', 'Corner Cards', 5000, 0, 0), row('b', 'Bell & Co', 12000, 2000, 45), row('c', 'Acme', 5000, 5000, 95)];
  it('sorts by each column, either way, ties by business name', () => {
    expect(sortBalances(list, 'business', true).map((r) => r.uid)).toEqual(['c', 'b', 'a']);
    expect(sortBalances(list, 'balance', false).map((r) => r.uid)).toEqual(['b', 'a', 'c']);
    expect(sortBalances(list, 'balance', true).map((r) => r.uid)).toEqual(['c', 'a', 'b']);
    expect(sortBalances(list, 'overdue', false).map((r) => r.uid)).toEqual(['c', 'b', 'a']);
    expect(sortBalances(list, 'oldest_overdue_days', true).map((r) => r.uid)).toEqual(['a', 'b', 'c']);
  });
  it('leaves the list it was given as it was', () => {
    sortBalances(list, 'balance', true);
    expect(list.map((r) => r.uid)).toEqual(['a', 'b', 'c']);
  });
});

describe('showsStatement', () => {
  it('shows it to a buyer on account, or with money owed or held', () => {
    expect(showsStatement({ on_account: true, balance: 0, due: 0, unallocated: 0 })).toBe(true);
    expect(showsStatement({ on_account: false, balance: 100, due: 100, unallocated: 0 })).toBe(true);
    expect(showsStatement({ on_account: false, balance: -100, due: 0, unallocated: 100 })).toBe(true);
    expect(showsStatement({ on_account: false, balance: 0, due: 0, unallocated: 0 })).toBe(false);
  });
});
