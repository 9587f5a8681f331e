import { describe, expect, it } from 'vitest';
import { actionWords, auditChanges, auditValue } from './audit';

describe('auditChanges', () => {
  it('lists every field either side changed, with values in words', () => {
    expect(
      auditChanges({
        before: { status: 'placed', paid_at: 0, credit_limit: null, approved_for_credit: false },
        after: {
          status: 'confirmed',
          paid_at: Date.UTC(2026, 10, 24, 18, 27),
          credit_limit: 200000,
          approved_for_credit: true,
          dispatch: { carrier: 'DPD', tracking: '15501234' },
        },
      }),
    ).toEqual([
      { field: 'status', before: 'placed', after: 'confirmed' },
      { field: 'paid at', before: 'none', after: '24 November 2026 at 18:27' },
      { field: 'credit limit', before: 'none', after: '£2,000.00' },
      { field: 'approved for credit', before: 'no', after: 'yes' },
      { field: 'dispatch', before: 'none', after: '{"carrier":"DPD","tracking":"15501234"}' },
    ]);
  });

  it("leaves out the order's version and what did not change", () => {
    expect(
      auditChanges({ before: { status: 'placed', version: 1, description: 'Ten off' }, after: { status: 'confirmed', version: 2, description: 'Ten off' } }),
    ).toEqual([{ field: 'status', before: 'placed', after: 'confirmed' }]);
  });

  it('reads a field missing before or after as nothing', () => {
    expect(auditChanges({ before: {}, after: { stock: 40 } })).toEqual([{ field: 'stock', before: 'none', after: '40' }]);
  });
});

describe('auditValue', () => {
  it("shows a coupon's validity in Unix seconds as a UK time, and money as pounds", () => {
    expect(auditValue('valid_to', Date.UTC(2026, 11, 1))).toBe('1 December 2026 at 00:00');
    expect(auditValue('valid_from', 0)).toBe('none');
    expect(auditValue('amount', 500)).toBe('£5.00');
    expect(auditValue('usage_limit', 100)).toBe('100');
  });
});

describe('actionWords', () => {
  it('makes an action name a phrase', () => {
    expect(actionWords('stock adjust: Delivery from the printer')).toBe('Stock adjust: Delivery from the printer');
    expect(actionWords('coupon created')).toBe('Coupon created');
    expect(actionWords('mark_paid')).toBe('Mark paid');
    expect(actionWords('')).toBe('Change');
  });
});
