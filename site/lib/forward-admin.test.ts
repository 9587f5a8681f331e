import { describe, expect, it } from 'vitest';
import { checkForwardForm, demandFileName, forwardForm } from './forward-admin';

describe('the forward form', () => {
  it('sends the dates and the expected units', () => {
    expect(checkForwardForm({ delivery_from: '2027-09-01', order_by: '2027-06-30', expected: ' 600 ' })).toEqual({
      ok: true,
      value: { delivery_from: '2027-09-01', order_by: '2027-06-30', expected: 600 },
    });
    expect(checkForwardForm({ delivery_from: '2027-09-01', order_by: '2027-09-01', expected: '' })).toMatchObject({ ok: true, value: { expected: 0 } });
  });
  it('names each field that is wrong, as the API does', () => {
    const r = checkForwardForm({ delivery_from: '2027-02-30', order_by: '', expected: '-3' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.problems).sort()).toEqual(['delivery_from', 'expected', 'order_by']);
    const late = checkForwardForm({ delivery_from: '2027-09-01', order_by: '2027-09-02', expected: '' });
    expect(late.ok).toBe(false);
    if (!late.ok) expect(late.problems.order_by).toMatch(/on or before the delivery date/);
  });
  it('starts from the marking, or empty for an ordinary product', () => {
    expect(forwardForm({ delivery_from: '2027-09-01', order_by: '2027-06-30', expected: 0 })).toEqual({
      delivery_from: '2027-09-01',
      order_by: '2027-06-30',
      expected: '',
    });
    expect(forwardForm(null)).toEqual({ delivery_from: '', order_by: '', expected: '' });
  });
  it('names the CSV as the server does', () => {
    expect(demandFileName({ sku: 'XM-1' }, '2027-03-01')).toBe('forward-demand-xm-1-2027-03-01.csv');
    expect(demandFileName({ range: 'christmas' }, '2027-03-01')).toBe('forward-demand-christmas-2027-03-01.csv');
  });
});
