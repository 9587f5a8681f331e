import { describe, expect, it } from 'vitest';
import type { Coupon } from './admin';
import { checkAccountForm, checkCouponForm, checkStockForm, couponForm, expired, exportRangeProblems, hasEnded, ownField, parseWhole } from './admin-forms';

const problemsOf = <T>(r: { ok: true; value: T } | { ok: false; problems: Record<string, string> }) => (r.ok ? {} : r.problems);

describe('parseWhole', () => {
  it('takes whole numbers only', () => {
    expect(parseWhole(' 42 ')).toBe(42);
    expect(parseWhole('0')).toBe(0);
    for (const t of ['', '-1', '1.5', '1e3', 'ten', '1234567890']) expect(parseWhole(t), t).toBeNull();
  });
});

describe('checkAccountForm', () => {
  it('needs a credit limit in pounds when approved, and sends it in pence', () => {
    expect(problemsOf(checkAccountForm({ approved: true, creditLimit: '', dsc: '', priceGroup: '' }, { version: 3 }))).toHaveProperty('credit_limit');
    expect(problemsOf(checkAccountForm({ approved: true, creditLimit: '2k', dsc: '', priceGroup: '' }, { version: 3 }))).toHaveProperty('credit_limit');
    expect(checkAccountForm({ approved: true, creditLimit: '£2,000.50', dsc: '{"range:xmas": 10}', priceGroup: 'independents' }, { version: 3 })).toEqual({
      ok: true,
      value: { version: 3, approved_for_credit: true, credit_limit: 200050, dsc: '{"range:xmas":10}', price_group: 'independents' },
    });
  });

  it('takes a credit limit of £0 to £1,000,000', () => {
    expect(checkAccountForm({ approved: true, creditLimit: '0', dsc: '', priceGroup: '' }, { version: 3 }).ok).toBe(true);
    expect(checkAccountForm({ approved: true, creditLimit: '1,000,000', dsc: '', priceGroup: '' }, { version: 3 }).ok).toBe(true);
    expect(problemsOf(checkAccountForm({ approved: true, creditLimit: '1000000.01', dsc: '', priceGroup: '' }, { version: 3 }))).toHaveProperty('credit_limit');
  });

  it('sends no limit when not approved, whatever the box holds', () => {
    expect(checkAccountForm({ approved: false, creditLimit: 'junk', dsc: '', priceGroup: '' }, { version: 1 })).toEqual({
      ok: true,
      value: { version: 1, approved_for_credit: false, credit_limit: null, dsc: '', price_group: '' },
    });
  });

  it("puts the discounts' problems on their keys", () => {
    expect(Object.keys(problemsOf(checkAccountForm({ approved: false, creditLimit: '', dsc: '{"range:xmas": 200}', priceGroup: '' }, { version: 1 })))).toEqual(
      ['dsc.range:xmas'],
    );
  });
});

const coupon: Coupon = {
  id: 'WELCOME5',
  description: '£5 off £50+',
  kind: 'fixed',
  percent: 0,
  amount: 500,
  min_spend: 5000,
  valid_from: Date.UTC(2026, 0, 1), // midnight in London (GMT)
  valid_to: Date.UTC(2026, 6, 31, 23), // midnight starting 1 August in London (BST)
  usage_limit: 0,
  per_account_limit: 1,
  used: 12,
  account_uid: '',
  version: 4,
};

describe('the coupon form', () => {
  it('holds a coupon as typed text: pounds, and the first and last London days', () => {
    expect(couponForm(coupon)).toEqual({
      id: 'WELCOME5',
      description: '£5 off £50+',
      kind: 'fixed',
      percent: '',
      amount: '5.00',
      minSpend: '50.00',
      validFrom: '2026-01-01',
      validTo: '2026-07-31',
      usageLimit: '',
      perAccountLimit: '1',
    });
  });

  it('sends an unchanged coupon back as it was, less its use count', () => {
    const { used: _used, ...rest } = coupon;
    expect(checkCouponForm(couponForm(coupon), coupon)).toEqual({ ok: true, value: rest });
  });

  it('keeps the moment Expire set while its day is left alone', () => {
    const gone = { ...coupon, ...expired(coupon, Date.UTC(2026, 4, 5, 14, 3, 20)), used: 12 };
    expect(gone.valid_to).toBe(Date.UTC(2026, 4, 5, 14, 3, 20));
    const f = couponForm(gone);
    expect(f.validTo).toBe('2026-05-05');
    const sent = checkCouponForm({ ...f, description: 'Ended early' }, gone);
    expect(sent.ok && sent.value.valid_to).toBe(gone.valid_to);
  });

  it('starts a typed first day at London midnight and ends after the typed last day', () => {
    const r = checkCouponForm({
      ...couponForm(),
      id: 'spring10',
      description: 'Spring',
      kind: 'percent',
      percent: '10',
      validFrom: '2026-04-01',
      validTo: '2026-04-30',
    });
    expect(r).toEqual({
      ok: true,
      value: {
        id: 'SPRING10',
        description: 'Spring',
        kind: 'percent',
        percent: 10,
        amount: 0,
        min_spend: 0,
        valid_from: Date.UTC(2026, 2, 31, 23),
        valid_to: Date.UTC(2026, 3, 30, 23),
        usage_limit: 0,
        per_account_limit: 0,
        account_uid: '',
        version: 0,
      },
    });
  });

  it('names every field that is wrong by its API name', () => {
    const r = checkCouponForm({
      id: 'no',
      description: '',
      kind: 'fixed',
      percent: '',
      amount: '0',
      minSpend: 'lots',
      validFrom: '2026-05-02',
      validTo: '2026-05-01',
      usageLimit: '-1',
      perAccountLimit: '1.5',
    });
    expect(Object.keys(problemsOf(r)).sort()).toEqual(['amount', 'description', 'id', 'min_spend', 'per_account_limit', 'usage_limit', 'valid_to']);
    expect(Object.keys(problemsOf(checkCouponForm({ ...couponForm(), id: 'ABC', description: 'Xmas', kind: 'percent', percent: '101' })))).toEqual(['percent']);
    expect(
      Object.keys(
        problemsOf(checkCouponForm({ ...couponForm(), id: 'ABC', description: 'ab', kind: 'fixed', amount: '100000.01', usageLimit: '1000001' })),
      ).sort(),
    ).toEqual(['amount', 'description', 'usage_limit']);
  });

  it('expires a coupon that has not started by starting it a second before it ends', () => {
    const now = Date.UTC(2026, 4, 5, 14);
    const later = { ...coupon, valid_from: now + 86_400_000 };
    expect(expired(later, now)).toMatchObject({ valid_from: now - 1000, valid_to: now, version: 4 });
    expect(expired(coupon, now)).toMatchObject({ valid_from: coupon.valid_from, valid_to: now });
    expect(expired(coupon, now + 999).valid_to).toBe(now); // whole seconds, as the shop keeps them
    expect(expired(coupon, now)).not.toHaveProperty('used');
  });

  it('knows a coupon whose end has come', () => {
    expect(hasEnded({ valid_to: 0 }, Date.now())).toBe(false);
    expect(hasEnded({ valid_to: 1_000_000 }, 1_000_000)).toBe(true);
    expect(hasEnded({ valid_to: 1_000_001 }, 1_000_000)).toBe(false);
  });

  it("reads a 400's field under coupon. by its own name", () => {
    expect(ownField('coupon.percent')).toBe('percent');
    expect(ownField('reason')).toBe('reason');
  });
});

describe('checkStockForm', () => {
  it('sets with the stock shown as expected, and adjusts by a signed quantity', () => {
    expect(checkStockForm({ mode: 'set', quantity: '120', reason: ' stock take ' }, 96)).toEqual({
      ok: true,
      value: { mode: 'set', quantity: 120, expected: 96, reason: 'stock take' },
    });
    expect(checkStockForm({ mode: 'add', quantity: '24', reason: 'delivery' }, 96)).toEqual({
      ok: true,
      value: { mode: 'adjust', quantity: 24, expected: 96, reason: 'delivery' },
    });
    expect(checkStockForm({ mode: 'remove', quantity: '6', reason: 'damaged' }, 96)).toEqual({
      ok: true,
      value: { mode: 'adjust', quantity: -6, expected: 96, reason: 'damaged' },
    });
  });

  it('needs a whole quantity and a reason of 3 to 200 characters', () => {
    expect(Object.keys(problemsOf(checkStockForm({ mode: 'set', quantity: '1.5', reason: 'ok' }, 0))).sort()).toEqual(['quantity', 'reason']);
    expect(Object.keys(problemsOf(checkStockForm({ mode: 'add', quantity: '0', reason: 'x'.repeat(201) }, 0))).sort()).toEqual(['quantity', 'reason']);
    expect(problemsOf(checkStockForm({ mode: 'remove', quantity: '7', reason: 'damaged' }, 6)).quantity).toMatch(/Only 6 units/);
    expect(problemsOf(checkStockForm({ mode: 'set', quantity: '0', reason: 'tab\there' }, 6)).reason).toMatch(/control characters/);
    expect(problemsOf(checkStockForm({ mode: 'set', quantity: '10000001', reason: 'count' }, 6)).quantity).toMatch(/at most 10,000,000/);
    expect(problemsOf(checkStockForm({ mode: 'add', quantity: '9999995', reason: 'count' }, 6)).quantity).toMatch(/at most 10,000,000/);
  });
});

describe('exportRangeProblems', () => {
  it('takes a range of up to 366 days, both included', () => {
    expect(exportRangeProblems('2026-11-01', '2026-11-30')).toEqual({});
    expect(exportRangeProblems('2026-11-01', '2026-11-01')).toEqual({});
    expect(exportRangeProblems('2027-01-01', '2028-01-01')).toEqual({}); // 366 days
    expect(exportRangeProblems('2026-01-01', '2027-01-01')).toEqual({}); // 366 days
    expect(exportRangeProblems('2026-01-01', '2027-01-02')).toHaveProperty('to');
    expect(exportRangeProblems('2026-11-30', '2026-11-01')).toHaveProperty('to');
    expect(Object.keys(exportRangeProblems('', 'x')).sort()).toEqual(['from', 'to']);
  });
});
