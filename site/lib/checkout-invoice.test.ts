import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./account-store', () => ({ idToken: async () => 'id-token' }));
vi.mock('./save-file', () => ({ saveFile: vi.fn() }));
const { awaitInvoice, creditNotePdf, downloadCreditNote, downloadInvoice, invoicePdf } = await import('./checkout');
const { saveFile } = await import('./save-file');
const { ApiError } = await import('./api');
import type { Invoice, Order } from './checkout';

const invoice: Invoice = {
  number: 'INV-000042',
  issued_at: Date.UTC(2026, 10, 24, 10),
  supplier: {
    trading_name: 'T',
    legal_name: 'T Ltd',
    registered_in: 'England and Wales',
    registered_address: 'A',
    company_number: '1',
    vat_number: 'GB000000000',
  },
  vat_rates: [{ rate: 20, net_ex_vat: 1000, vat: 200 }],
  payment_terms: 'Pay.',
};
const order = (inv: Invoice | null) => ({ id: 'TS-100042', invoice: inv }) as Order;

describe('awaitInvoice', () => {
  afterEach(() => vi.useRealTimers());

  it('asks again every interval until the invoice is issued, and answers that order', async () => {
    vi.useFakeTimers();
    const answers = [order(null), order(null), order(invoice)];
    const load = vi.fn(async () => answers.shift()!);
    const wait = awaitInvoice('TS-100042', { intervalMs: 2000, tries: 5, load });
    await vi.advanceTimersByTimeAsync(1999);
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(4001);
    await expect(wait).resolves.toEqual(order(invoice));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('gives up after the last try, counting a failed ask as one without; null', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => {
      if (load.mock.calls.length === 2) throw new TypeError('fetch failed');
      return order(null);
    });
    const wait = awaitInvoice('TS-100042', { intervalMs: 2000, tries: 5, load });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(wait).resolves.toBeNull();
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('stops when the signal aborts (the page went away)', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const load = vi.fn(async () => order(null));
    const wait = awaitInvoice('TS-100042', { intervalMs: 2000, tries: 5, load, signal: stop.signal });
    await vi.advanceTimersByTimeAsync(2000);
    stop.abort();
    await expect(wait).resolves.toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('invoicePdf and downloadInvoice', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(saveFile).mockClear();
  });

  /** The page's fetch answering the invoice path, with the calls it saw. */
  function serve(status: number, body: string, type: string) {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('document', { querySelector: () => ({ content: 'csrf' }) });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(body, { status, headers: { 'Content-Type': type } });
    });
    return calls;
  }

  it('fetches the PDF with the bearer token and saves it as the invoice number', async () => {
    const calls = serve(200, '%PDF-1.7', 'application/pdf');
    await downloadInvoice(order(invoice), {} as Document);
    expect(calls[0]!.url).toBe('/api/orders/TS-100042/invoice');
    expect(calls[0]!.init.method).toBe('GET');
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer id-token');
    const [blob, name] = vi.mocked(saveFile).mock.calls[0]!;
    expect(name).toBe('INV-000042.pdf');
    await expect(blob.text()).resolves.toBe('%PDF-1.7');
  });

  it('fails with the server sentence for 404 and 409, and refuses an answer that is not a PDF', async () => {
    serve(409, '{"error":"the invoice of this order is not issued yet"}', 'application/json');
    await expect(invoicePdf('TS-100042')).rejects.toEqual(new ApiError(409, 'the invoice of this order is not issued yet'));
    serve(404, '{"error":"no such order"}', 'application/json');
    await expect(invoicePdf('TS-100042')).rejects.toMatchObject({ status: 404 });
    serve(200, '<!doctype html>', 'text/html');
    await expect(invoicePdf('TS-100042')).rejects.toThrow(/not a PDF/);
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('fetches a credit note the same way, at its own path, and saves it as its number', async () => {
    const calls = serve(200, '%PDF-1.7', 'application/pdf');
    await downloadCreditNote('TS-100042', 'CN-000007', {} as Document);
    expect(calls[0]!.url).toBe('/api/orders/TS-100042/creditNotes/CN-000007');
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer id-token');
    expect(vi.mocked(saveFile).mock.calls[0]![1]).toBe('CN-000007.pdf');
    serve(200, '<!doctype html>', 'text/html');
    await expect(creditNotePdf('TS-100042', 'CN-000007')).rejects.toThrow(/not a PDF/);
  });

  it('does not ask for an invoice that is not issued', async () => {
    const calls = serve(200, '%PDF-', 'application/pdf');
    await expect(downloadInvoice(order(null), {} as Document)).rejects.toThrow(/not issued/);
    expect(calls).toHaveLength(0);
  });
});
