import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Statement } from '@/lib/statements';
import { StatementView } from './statement';

const answer: Statement = {
  business: 'Meadow Cards',
  on_account: true,
  date: '2026-12-01',
  balance: 24500,
  due: 27000,
  overdue: 12000,
  unallocated: 2500,
  oldest_overdue_days: 45,
  ageing: [
    { bucket: 'current', amount: 15000 },
    { bucket: 'days_1_30', amount: 0 },
    { bucket: 'days_31_60', amount: 12000 },
    { bucket: 'days_61_90', amount: 0 },
    { bucket: 'days_over_90', amount: 0 },
  ],
  open_items: [
    {
      invoice: 'INV-000041',
      order_id: 'TS-100041',
      date: '2026-09-17',
      due_on: '2026-10-17',
      amount: 12000,
      outstanding: 12000,
      past_due: true,
      days_overdue: 45,
    },
    {
      invoice: 'INV-000042',
      order_id: 'TS-100042',
      date: '2026-11-24',
      due_on: '2026-12-24',
      amount: 15000,
      outstanding: 15000,
      past_due: false,
      days_overdue: 0,
    },
  ],
  entries: [],
};

describe('the dashboard statement', () => {
  const html = renderToStaticMarkup(<StatementView answer={answer} />);
  it('shows the balance, what is overdue and the credit held, as at its day', () => {
    expect(html).toContain('Statement of account');
    expect(html).toContain('As at 1 December 2026.');
    expect(html).toMatch(/data-testid="statement-balance">£245.00</);
    expect(html).toMatch(/data-testid="statement-overdue">£120.00</);
    expect(html).toContain('Credit on account');
    expect(html).toContain('£25.00');
    expect(html).toContain('Current £150.00 · 1–30 days £0.00 · 31–60 days £120.00');
  });
  it('lists each open invoice with its order linked, when it was due and how late', () => {
    expect(html).toContain('<caption>Open invoices</caption>');
    expect(html).toContain('href="/account/orders/?id=TS-100041"');
    expect(html).toContain('17 October 2026<strong> (45 days overdue)</strong>');
    expect(html).toContain('24 December 2026</td>');
    expect(html).toContain('Download statement (PDF)');
  });
});
