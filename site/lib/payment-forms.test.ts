import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from './admin';
import { checkAllocateForm, checkPaymentForm, checkRefundForm, newPaymentForm, newRefundForm, openInvoices, todayInLondon } from './payment-forms';

// 23:30 UTC on 31 July 2026 is 1 August in London (BST).
const now = Date.UTC(2026, 6, 31, 23, 30);

const entry = (e: Partial<LedgerEntry>): LedgerEntry => ({
  kind: 'invoice',
  date: '2026-07-01',
  reference: 'INV-000001',
  order_id: 'TS-100001',
  debit: 0,
  credit: 0,
  balance: 0,
  outstanding: 0,
  due_on: null,
  past_due: false,
  method: '',
  payment_reference: '',
  unallocated: 0,
  source: '',
  flag: '',
  status: null,
  failure: null,
  ...e,
});

describe('the payment form', () => {
  it('starts on today in London, a bank transfer allocated oldest first', () => {
    expect(todayInLondon(now)).toBe('2026-08-01');
    expect(newPaymentForm(now)).toMatchObject({ method: 'bank_transfer', date: '2026-08-01', allocate: 'oldest' });
  });

  it('sends pounds as pence and by hand only the invoices with an amount', () => {
    const f = {
      ...newPaymentForm(now),
      amount: '1,250.50',
      reference: ' BACS 42 ',
      allocate: 'by_hand' as const,
      hand: { 'INV-000001': '1000', 'INV-000002': ' ' },
    };
    expect(checkPaymentForm(f, now)).toEqual({
      ok: true,
      value: {
        method: 'bank_transfer',
        date: '2026-08-01',
        amount: 125050,
        reference: 'BACS 42',
        allocate: 'by_hand',
        lines: [{ invoice: 'INV-000001', amount: 100000 }],
      },
    });
  });

  it('says each problem beside its field', () => {
    const f = { ...newPaymentForm(now), date: '2026-08-02', amount: '0', reference: '', allocate: 'by_hand' as const, hand: { 'INV-000003': '1.234' } };
    const r = checkPaymentForm(f, now);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.problems).sort()).toEqual(['amount', 'date', 'line-INV-000003', 'reference']);
    const none = checkPaymentForm({ ...newPaymentForm(now), amount: '5', reference: 'X', allocate: 'by_hand', hand: {} }, now);
    expect(none.ok ? {} : none.problems).toEqual({ lines: 'Enter an amount beside at least one invoice.' });
  });
});

describe('allocating and refunding', () => {
  it('lists the open invoices oldest first', () => {
    const entries = [
      entry({ reference: 'INV-000002', outstanding: 500, due_on: '2026-08-30' }),
      entry({ reference: 'INV-000001', outstanding: 0 }),
      entry({ kind: 'payment', reference: 'PAY-1', unallocated: 300 }),
      entry({ reference: 'INV-000003', outstanding: 20, past_due: true }),
    ];
    expect(openInvoices(entries).map((i) => i.invoice)).toEqual(['INV-000002', 'INV-000003']);
  });

  it('allocates oldest first without lines', () => {
    expect(checkAllocateForm({ allocate: 'oldest', hand: { 'INV-000001': '5' } })).toEqual({ ok: true, value: undefined });
    expect(checkAllocateForm({ allocate: 'by_hand', hand: { 'INV-000001': '5' } })).toEqual({ ok: true, value: [{ invoice: 'INV-000001', amount: 500 }] });
  });

  it('refunds from its source in pence', () => {
    const r = checkRefundForm({ ...newRefundForm(now), amount: '12', reference: 'BACS BACK' }, 'CN-000007', now);
    expect(r).toEqual({ ok: true, value: { source: 'CN-000007', method: 'bank_transfer', date: '2026-08-01', amount: 1200, reference: 'BACS BACK' } });
    const bad = checkRefundForm({ ...newRefundForm(now), amount: 'twelve' }, 'CN-000007', now);
    expect(bad.ok ? [] : Object.keys(bad.problems).sort()).toEqual(['amount', 'reference']);
  });
});
