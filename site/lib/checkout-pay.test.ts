import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./account-store', () => ({ idToken: async () => 'id-token', setCartUpdated: vi.fn() }));
const { awaitPayment, payOrder } = await import('./checkout');
const { ApiError, CSRF_HEADER } = await import('./api');
import type { Order, PaymentState } from './checkout';

const order = (state: PaymentState) => ({ id: 'TS-100042', payment: { state, failure: null, can_pay_now: false, card_refunds: [] } }) as unknown as Order;
const settled = (o: Order) => o.payment?.state !== 'pending';

describe('awaitPayment', () => {
  afterEach(() => vi.useRealTimers());

  it('asks again every interval until the payment has an outcome, handing on each order seen', async () => {
    vi.useFakeTimers();
    const answers = [order('pending'), order('pending'), order('paid')];
    const load = vi.fn(async () => answers.shift()!);
    const seen = vi.fn();
    const wait = awaitPayment('TS-100042', settled, { intervalMs: 2000, tries: 30, load, seen });
    await vi.advanceTimersByTimeAsync(6000);
    await expect(wait).resolves.toEqual(order('paid'));
    expect(load).toHaveBeenCalledTimes(3);
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it('gives up after a minute (null), and stops when the page goes away', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => order('pending'));
    const wait = awaitPayment('TS-100042', settled, { load });
    await vi.advanceTimersByTimeAsync(120_000);
    await expect(wait).resolves.toBeNull();
    expect(load).toHaveBeenCalledTimes(30);

    const stop = new AbortController();
    load.mockClear();
    const stopped = awaitPayment('TS-100042', settled, { load, signal: stop.signal });
    await vi.advanceTimersByTimeAsync(2000);
    stop.abort();
    await expect(stopped).resolves.toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('payOrder', () => {
  afterEach(() => vi.unstubAllGlobals());

  function serve(status: number, body: unknown) {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('document', { querySelector: () => ({ content: 'csrf' }) });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
    return calls;
  }

  it('posts the ID token with the CSRF header and answers where to pay', async () => {
    const calls = serve(200, { url: '/pay/local/?order=TS-100042&attempt=1&session=cs_test_1' });
    await expect(payOrder('TS-100042')).resolves.toEqual({ url: '/pay/local/?order=TS-100042&attempt=1&session=cs_test_1' });
    expect(calls[0]!.url).toBe('/api/orders/TS-100042/pay');
    expect(calls[0]!.init.method).toBe('POST');
    expect((calls[0]!.init.headers as Record<string, string>)[CSRF_HEADER]).toBe('csrf');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ token: 'id-token' });
  });

  it('fails with the server’s sentence when the order cannot be paid', async () => {
    serve(409, { error: 'Order TS-100042 is already paid.' });
    await expect(payOrder('TS-100042')).rejects.toEqual(new ApiError(409, 'Order TS-100042 is already paid.'));
  });
});
