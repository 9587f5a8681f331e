import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { CreditNote, Invoice, Order } from '@/lib/checkout';
import { CreditNoteView } from './credit-note-view';
import { OrderView } from './order-view';

const invoice: Invoice = {
  number: 'INV-000042',
  // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST): the invoice's date is London's.
  issued_at: Date.UTC(2026, 5, 30, 23, 30),
  supplier: {
    trading_name: 'TradeShop Wholesale',
    legal_name: 'TradeShop Wholesale Limited',
    registered_in: 'England and Wales',
    registered_address: 'Unit 4, Meadow Lane Trading Estate, Exampleton, EX1 2AB',
    company_number: '00000000',
    vat_number: 'GB000000000',
  },
  vat_rates: [
    { rate: 20, net_ex_vat: 12345, vat: 2469 },
    { rate: 0, net_ex_vat: 500, vat: 0 },
  ],
  payment_terms: 'On account: payment is due within 30 days of the invoice date, by 31 July 2026.',
};

const order: Order = {
  id: 'TS-100042',
  placed_at: Date.UTC(2026, 5, 30, 23, 30),
  lines: [
    {
      sku: 'XM-1',
      name: 'Robin cards',
      pack_size: 6,
      quantity: 12,
      list_price: 100,
      discount_percent: 5,
      unit_price: 95,
      line_amount: 1140,
      vat_rate: 20,
      vat: 228,
      credited: 0,
      to_send: 12,
      base_price: 100,
      break_from: null,
      break_price: 100,
      price_group: null,
      delivery_from: '',
      order_by: '',
    },
    {
      sku: 'BK-2',
      name: 'Colouring book',
      pack_size: 1,
      quantity: 5,
      list_price: 100,
      discount_percent: 0,
      unit_price: 100,
      line_amount: 500,
      vat_rate: 0,
      vat: 0,
      credited: 0,
      to_send: 5,
      base_price: 100,
      break_from: null,
      break_price: 100,
      price_group: null,
      delivery_from: '',
      order_by: '',
    },
  ],
  goods_ex_vat: 12050,
  coupon_id: 'WELCOME5',
  coupon_discount: 500,
  delivery_charge: 1295,
  delivery_vat: 259,
  delivery_option: 'next-day',
  net_ex_vat: 12845,
  vat: 2469,
  total_inc_vat: 15314,
  status: 'placed',
  billing: {
    company: 'Harbour Gifts Ltd',
    contact: 'Morgan Reed',
    address: { line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
    vat_number: 'GB123456789',
    po_ref: 'PO-7781',
    payment_method: 'account',
  },
  deliver_to: { line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'EX1 2AB' },
  delivery_note: 'Side door',
  invoice,
  credit_notes: [],
  delivery_charge_credited: 0,
  delivery_charge_left: 0,
  kind: '',
  companion: '',
  no_backorders: false,
  forward_of: '',
  receipt: '',
  payment: { state: 'awaiting', failure: null, can_pay_now: false, card_refunds: [] },
  paid_at: null,
  confirmed_at: null,
  dispatched_at: null,
  completed_at: null,
  cancelled_at: null,
  dispatch: null,
};

/** The markup's text, as a reader gets it. */
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<br\/>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
/** The text of each row of the table whose caption is caption. */
function rows(html: string, caption: string): string[] {
  const table = html.split('<table').find((t) => t.includes(`>${caption}</caption>`)) ?? '';
  const body = table.slice(table.indexOf('<tbody>'), table.indexOf('</tbody>'));
  return body
    .split('</tr>')
    .filter((r) => r.includes('<t'))
    .map((r) => text(r).trim());
}

describe('OrderView with its VAT invoice', () => {
  const html = renderToStaticMarkup(<OrderView order={order} />);
  const page = text(html);

  it('is headed VAT invoice and names the supplier: legal and trading name, registered office, company and VAT numbers', () => {
    expect(html).toContain('<h2 id="invoice-title">VAT invoice</h2>');
    expect(page).toContain('TradeShop Wholesale Limited Trading as TradeShop Wholesale Unit 4, Meadow Lane Trading Estate, Exampleton, EX1 2AB');
    expect(page).toContain('Registered in England and Wales, company number 00000000');
    expect(page).toContain('VAT registration number GB000000000');
  });

  it('gives the invoice number, the invoice date and tax point as London dates, the order number and the PO reference', () => {
    expect(page).toContain('Invoice number INV-000042');
    expect(page).toContain('Invoice date 1 July 2026');
    expect(page).toContain('Tax point 1 July 2026');
    expect(html).toContain('<dd class="order-number">TS-100042</dd>');
    expect(page).toContain('Your PO reference PO-7781');
  });

  it('invoices the buyer with their VAT number, and delivers with the option and note', () => {
    expect(page).toContain('Invoice to Harbour Gifts Ltd, Morgan Reed 4 Quay Street, Exampleton EX1 2AB VAT number GB123456789');
    expect(page).toContain('Deliver to 4 Quay Street, Exampleton EX1 2AB Next working day Note: Side door');
  });

  it('lists each line with unit price ex VAT, units, VAT rate, line ex VAT and VAT', () => {
    expect(rows(html, 'Order lines')).toEqual([
      'Robin cards (XM-1) £0.95 (list £1.00 , 5% off) 12 20% £11.40 £2.28',
      'Colouring book (BK-2) £1.00 5 0% £5.00 £0.00',
    ]);
  });

  it('shows per line the units ordered, credited and to be sent once a line is credited', () => {
    const [robin, book] = order.lines;
    const credited: Order = { ...order, lines: [{ ...robin!, credited: 12, to_send: 0 }, book!] };
    const got = rows(renderToStaticMarkup(<OrderView order={credited} />), 'Order lines');
    expect(got).toEqual(['Robin cards (XM-1) £0.95 (list £1.00 , 5% off) 12 12 0 20% £11.40 £2.28', 'Colouring book (BK-2) £1.00 5 0 5 0% £5.00 £0.00']);
    const html = renderToStaticMarkup(<OrderView order={{ ...credited, status: 'dispatched' }} />);
    expect(html).toContain('>Supplied</th>');
    expect(html).toContain('>Credited</th>');
  });

  it('sums VAT per rate from the invoice, highest first, and gives the order totals', () => {
    expect(rows(html, 'VAT summary')).toEqual(['20% £123.45 £24.69', '0% £5.00 £0.00']);
    expect(page).toContain('Goods ex VAT £120.50 Coupon WELCOME5 −£5.00 Delivery ex VAT £12.95 Total ex VAT £128.45 VAT £24.69 Total inc VAT £153.14');
  });

  it("says how to pay in the invoice's own words, and says nothing of an invoice to come", () => {
    expect(html).toContain('<p class="payment-instructions">On account: payment is due within 30 days of the invoice date, by 31 July 2026.</p>');
    expect(page).not.toContain('being issued');
    expect(page).not.toMatch(/invoice you on dispatch/);
  });

  it('captions its tables, scopes their headers, and labels each cell for the phone layout', () => {
    expect(html).toContain('<caption class="sr-only">Order lines</caption>');
    expect(html).toContain('<caption>VAT summary</caption>');
    expect(html.match(/<th(?! scope="(col|row)")[ >]/g)).toBeNull();
    expect(html.match(/<td(?! data-label=")[ >]/g)).toBeNull();
  });

  it('leaves out the trading name when it is the legal name, and the PO when there is none', () => {
    const same = { ...invoice, supplier: { ...invoice.supplier, trading_name: invoice.supplier.legal_name } };
    const plain = text(renderToStaticMarkup(<OrderView order={{ ...order, invoice: same, billing: { ...order.billing!, po_ref: '', vat_number: '' } }} />));
    expect(plain).not.toContain('Trading as');
    expect(plain).not.toContain('PO reference');
    expect(plain).not.toContain('VAT number GB123456789');
  });
});

describe('OrderView while the invoice is being issued', () => {
  const pending = (o: Partial<Order>, late = false) => renderToStaticMarkup(<OrderView order={{ ...order, invoice: null, ...o }} invoiceLate={late} />);

  it('says the invoice is on its way, as a status, and shows the order without the invoice parts', () => {
    const html = pending({});
    expect(html).toContain('role="status">Your VAT invoice is being issued: it will be here in a moment.</p>');
    expect(html).not.toContain('VAT invoice</h2>');
    expect(html).not.toContain('VAT summary');
    expect(text(html)).toContain('Order TS-100042 , placed 1 July 2026');
    expect(text(html)).toContain('Your PO PO-7781');
    expect(rows(html, 'Order lines')).toHaveLength(2);
  });

  it("gives the payment method's terms: due 30 days from the invoice date on account, bank transfer for pro-forma", () => {
    const account = text(pending({}));
    expect(account).toContain('On account: payment is due within 30 days of the invoice date.');
    expect(account).not.toMatch(/invoice you on dispatch/);
    const proforma = text(pending({ billing: { ...order.billing!, payment_method: 'proforma' } }));
    expect(proforma).toContain('Pro-forma: please pay £153.14 by bank transfer');
    expect(proforma).toContain('quoting TS-100042');
  });

  it('says so when the invoice is taking longer than it should', () => {
    expect(pending({}, true)).toContain('role="status">Your VAT invoice is taking longer than usual to issue. Reload this page in a minute to see it.</p>');
  });
});

describe('CreditNoteView', () => {
  const note: CreditNote = {
    number: 'CN-000007',
    issued_at: Date.UTC(2026, 6, 2, 9),
    invoice: 'INV-000042',
    invoice_issued_at: Date.UTC(2026, 5, 30, 23, 30),
    lines: [{ line: 0, sku: 'XM-1', name: 'Robin cards', pack_size: 6, units: 12, unit_price: 285, vat_rate: 20, net_ex_vat: 3420, vat: 684, restocked: 12 }],
    delivery_ex_vat: 795,
    delivery_vat: 159,
    vat_rates: [{ rate: 20, net_ex_vat: 4215, vat: 843 }],
    net_ex_vat: 4215,
    vat: 843,
    total_inc_vat: 5058,
    reason: 'Order cancelled: Customer asked to cancel',
    applied_amount: 5058,
    on_account_amount: 0,
  };
  const html = renderToStaticMarkup(<CreditNoteView order={{ ...order, status: 'cancelled', credit_notes: [note] }} note={note} />);
  const page = text(html);

  it('gives its number and date, the invoice it credits with its date, and the reason', () => {
    expect(page).toContain('VAT credit note CN-000007');
    expect(page).toContain('Credit note date 2 July 2026');
    expect(page).toContain('Credits invoice INV-000042 of 1 July 2026');
    expect(page).toContain('Reason Order cancelled: Customer asked to cancel');
  });

  it('lists each line and the delivery credited, the VAT per rate and the totals, as the server gave them', () => {
    expect(rows(html, 'Lines credited')).toEqual(['Robin cards (XM-1) £2.85 12 20% £34.20 £6.84', 'Delivery £7.95 £1.59']);
    expect(rows(html, 'VAT credited')).toEqual(['20% £42.15 £8.43']);
    expect(page).toContain('Total credited inc VAT £50.58');
    expect(page).toContain('Download credit note CN-000007 (PDF)');
    expect(page).not.toContain('Left on your account as credit');
  });

  it('says what the note leaves on the account as credit when the invoice owed less', () => {
    const paid = { ...note, applied_amount: 1000, on_account_amount: 4058 };
    const got = text(renderToStaticMarkup(<CreditNoteView order={{ ...order, status: 'cancelled', credit_notes: [paid] }} note={paid} />));
    expect(got).toContain('Left on your account as credit £40.58');
  });
});
