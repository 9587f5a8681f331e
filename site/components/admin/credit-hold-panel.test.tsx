import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { CreditHold } from '@/lib/admin';
import { HoldStatus } from './credit-hold-panel';

const hold = { invoice: 'INV-000042', order_id: 'TS-100042', due_on: '2026-10-28', days_overdue: 30, outstanding: 120000 };
const text = (h: CreditHold) => renderToStaticMarkup(<HoldStatus hold={h} />).replace(/<[^>]+>/g, '');

describe("the account page's credit hold", () => {
  it('names the overdue invoice while the account is held', () => {
    expect(text({ held: true, grace_days: 14, hold, lift: null })).toBe(
      'On credit hold: invoice INV-000042 (order TS-100042) is 30 days overdue with £1,200.00 still owed. Orders on account are refused until it is paid or credited, or the hold is lifted; pro-forma orders are taken.',
    );
  });

  it('says who lifted it, until when and why while a lift is in force', () => {
    const lift = { until: '2026-12-11', reason: 'Cheque promised for Friday', at: 0, by: 'jo@example.co.uk', active: true };
    expect(text({ held: false, grace_days: 14, hold, lift })).toBe(
      'Hold lifted until 11 December 2026 by jo@example.co.uk: Cheque promised for Friday (invoice INV-000042 is 30 days overdue)',
    );
  });

  it('is held again once the lift has ended, and says nothing is held when nothing is overdue', () => {
    const ended = { until: '2026-11-01', reason: 'Promised', at: 0, by: 'jo@example.co.uk', active: false };
    expect(text({ held: true, grace_days: 14, hold, lift: ended })).toMatch(/^On credit hold: invoice INV-000042/);
    expect(text({ held: false, grace_days: 14, hold: null, lift: null })).toBe('Not on credit hold: no invoice on account is more than 14 days overdue.');
  });
});
