import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Ledger, LedgerEntry } from '@/lib/admin';
import { LedgerFigures, LedgerTable } from './ledger-table';

const entry = (e: Partial<LedgerEntry>): LedgerEntry => ({
  kind: 'invoice',
  date: '2026-10-01',
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
  ...e,
});

const ledger: Ledger = {
  entries: [
    entry({ reference: 'INV-000001', debit: 12000, balance: 12000, outstanding: 2000, due_on: '2026-10-31', past_due: true }),
    entry({
      kind: 'payment',
      reference: 'PAY-AAA',
      order_id: '',
      date: '2026-10-05',
      credit: 10000,
      balance: 2000,
      method: 'bank_transfer',
      payment_reference: 'BACS 1',
    }),
    entry({ kind: 'credit_note', reference: 'CN-000001', order_id: 'TS-100002', credit: 3000, balance: -1000, unallocated: 3000 }),
    entry({ kind: 'refund', reference: 'REF-BBB', order_id: '', debit: 500, balance: -500, method: 'cheque', payment_reference: 'CHQ 7', source: 'CN-000001' }),
  ],
  balance: -500,
  due: 2000,
  overdue: 2000,
  unallocated: 2500,
};

describe('the ledger on the account page', () => {
  it('shows the figures, the running balance and an overdue invoice marked', () => {
    const figures = renderToStaticMarkup(<LedgerFigures ledger={ledger} />);
    expect(figures).toContain('<dd class="ledger-balance">-£5.00</dd>');
    expect(figures).toContain('<dd class="ledger-overdue form-error">£20.00</dd>');
    const html = renderToStaticMarkup(<LedgerTable ledger={ledger} act={() => {}} />);
    expect(html).toContain('<tr class="ledger-row past-due" data-reference="INV-000001">');
    expect(html).toContain('Owes £20.00, due 31 October 2026<strong class="ledger-past-due"> · Overdue</strong>');
    expect(html).toContain('Bank transfer, BACS 1');
    expect(html).toContain('Credit on account £30.00 left');
    expect(html).toContain('Cheque from CN-000001, CHQ 7');
    expect(html).toContain('<td>-£5.00</td>');
  });

  it('offers Allocate and Refund only where something is left', () => {
    const html = renderToStaticMarkup(<LedgerTable ledger={ledger} act={() => {}} />);
    expect(html.match(/aria-label="Allocate [^"]+"/g)).toEqual(['aria-label="Allocate CN-000001"']);
    expect(html.match(/aria-label="Refund [^"]+"/g)).toEqual(['aria-label="Refund CN-000001"']);
  });
});
