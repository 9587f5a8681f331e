import { describe, expect, it } from 'vitest';
import { isCancelled, orderActions, progressNote, statusWord } from './order-status';

describe('statusWord', () => {
  it.each([
    ['placed', 'Placed'],
    ['confirmed', 'Confirmed'],
    ['dispatched', 'Dispatched'],
    ['completed', 'Completed'],
    ['cancelling', 'Cancelled'],
    ['cancelled', 'Cancelled'],
  ])('%s is %s', (status, word) => {
    expect(statusWord(status)).toBe(word);
  });

  it('reads an order from before statuses as placed, and an unknown status as written', () => {
    expect(statusWord(undefined)).toBe('Placed');
    expect(statusWord('')).toBe('Placed');
    expect(statusWord('on_hold')).toBe('On hold');
  });

  it('counts cancelling as cancelled', () => {
    expect(isCancelled('cancelling')).toBe(true);
    expect(isCancelled('cancelled')).toBe(true);
    expect(isCancelled('dispatched')).toBe(false);
  });
});

describe('orderActions', () => {
  const onAccount = { billing: { payment_method: 'account' } };
  const proForma = { billing: { payment_method: 'proforma' } };
  const names = (o: Parameters<typeof orderActions>[0]) => orderActions(o).map((a) => (a.blocked ? `${a.action} (blocked)` : a.action));

  it.each([
    ['placed, unpaid', { status: 'placed', ...onAccount }, ['confirm', 'pay', 'cancel']],
    ['placed, paid', { status: 'placed', paid_at: 1, ...onAccount }, ['confirm', 'cancel']],
    ['confirmed on account, unpaid', { status: 'confirmed', ...onAccount }, ['pay', 'dispatch', 'cancel']],
    ['confirmed pro-forma, unpaid', { status: 'confirmed', ...proForma }, ['pay', 'dispatch (blocked)', 'cancel']],
    ['confirmed pro-forma, paid', { status: 'confirmed', paid_at: 1764000000000, ...proForma }, ['dispatch', 'cancel']],
    ['dispatched, unpaid', { status: 'dispatched', ...onAccount }, ['pay', 'complete']],
    ['dispatched, paid', { status: 'dispatched', paid_at: 1, ...onAccount }, ['complete']],
    ['completed, unpaid', { status: 'completed', ...onAccount }, ['pay']],
    ['completed, paid', { status: 'completed', paid_at: 1, ...onAccount }, []],
    ['cancelling', { status: 'cancelling', ...onAccount }, []],
    ['cancelled, unpaid', { status: 'cancelled', ...proForma }, []],
  ])('%s: %j', (_name, order, want) => {
    expect(names(order)).toEqual(want);
  });

  it('takes an order without billing as pro-forma, and paid_at 0 or null as unpaid', () => {
    expect(names({ status: 'confirmed' })).toEqual(['pay', 'dispatch (blocked)', 'cancel']);
    expect(names({ status: 'confirmed', paid_at: 0, ...proForma })).toContain('dispatch (blocked)');
    expect(names({ status: 'confirmed', paid_at: null, ...proForma })).toContain('dispatch (blocked)');
  });

  it('says why dispatch waits', () => {
    const d = orderActions({ status: 'confirmed', ...proForma }).find((a) => a.action === 'dispatch');
    expect(d?.blocked).toMatch(/pro-forma.*paid/i);
  });
});

describe('progressNote', () => {
  const day = Date.UTC(2026, 11, 3, 10);
  it('says when and how a dispatched order went out', () => {
    expect(progressNote({ status: 'dispatched', dispatched_at: day, dispatch: { carrier: 'DPD', tracking: '15501234' } })).toBe(
      'Dispatched 3 December 2026 · DPD, tracking reference 15501234',
    );
    expect(progressNote({ status: 'completed', dispatch: { carrier: 'Royal Mail', tracking: 'RM1' } })).toBe('Dispatched · Royal Mail, tracking reference RM1');
  });

  it('says when and why an order was cancelled, cancelling too', () => {
    expect(progressNote({ status: 'cancelled', cancelled_at: day, cancel_reason: 'Out of stock' })).toBe('Cancelled 3 December 2026 · Reason: Out of stock');
    expect(progressNote({ status: 'cancelling' })).toBe('Cancelled');
  });

  it('has nothing to add for an order that has not gone out', () => {
    expect(progressNote({ status: 'placed' })).toBeNull();
    expect(progressNote({ status: 'confirmed' })).toBeNull();
  });
});
