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
  status: null,
  failure: null,
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

  it('shows a card payment as Card with its flag as a warning, and a card refund with its status and failure', () => {
    const cards: Ledger = {
      ...ledger,
      entries: [
        entry({
          kind: 'payment',
          reference: 'PAY-0A1B2C3D4E5F',
          credit: 12000,
          method: 'card',
          payment_reference: 'pi_123',
          unallocated: 12000,
          flag: 'The order was cancelled before the payment arrived: refunded to the card.',
        }),
        entry({ kind: 'refund', reference: 'REF-CCC', debit: 12000, method: 'card', payment_reference: 're_1', source: 'PAY-0A1B2C3D4E5F', status: 'pending' }),
        entry({
          kind: 'refund',
          reference: 'REF-DDD',
          debit: 300,
          method: 'card',
          payment_reference: 're_2',
          source: 'CN-000001',
          status: 'failed',
          failure: 'expired_or_canceled_card',
        }),
      ],
    };
    const html = renderToStaticMarkup(<LedgerTable ledger={cards} act={() => {}} />).replace(/<!-- -->/g, '');
    expect(html).toContain(
      'Card, pi_123 · £120.00 unallocated<strong class="ledger-flag">Check this payment: The order was cancelled before the payment arrived: refunded to the card.</strong>',
    );
    expect(html).toContain('Card from PAY-0A1B2C3D4E5F, re_1<span class="ledger-refund-status refund-pending"> · pending at Stripe</span>');
    expect(html).toContain('Card from CN-000001, re_2<span class="ledger-refund-status refund-failed"> · failed: expired_or_canceled_card</span>');
  });
});
