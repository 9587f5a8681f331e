import { describe, expect, it } from 'vitest';
import { ApiError, CSRF_HEADER, apiErrorText, apiFetch, fieldProblems } from './api';

const doc = (token: string | null) => ({
  querySelector: (sel: string) => (sel === 'meta[name="csrf-token"]' && token !== null ? { content: token } : null),
}) as unknown as Pick<Document, 'querySelector'>;

function fakeFetch(status: number, body: string) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body, { status });
  }) as unknown as typeof fetch;
  return { impl, calls };
}

describe('apiFetch', () => {
  it('sends JSON with the CSRF token from the meta tag', async () => {
    const f = fakeFetch(200, '[{"id":1}]');
    const out = await apiFetch<{ id: number }[]>('/api/shoppingCartSmall', { body: { token: 't' }, fetchImpl: f.impl, doc: doc('csrf-123') });
    expect(out).toEqual([{ id: 1 }]);
    const init = f.calls[0]!.init;
    const headers = init.headers as Record<string, string>;
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"token":"t"}');
    expect(headers[CSRF_HEADER]).toBe('csrf-123');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init.credentials).toBe('same-origin');
  });

  it('omits the header when the page has no token', async () => {
    const f = fakeFetch(200, '{}');
    await apiFetch('/api/x', { method: 'GET', fetchImpl: f.impl, doc: doc(null) });
    expect(Object.keys(f.calls[0]!.init.headers as object)).not.toContain(CSRF_HEADER);
  });

  it('fetches a CSRF token first for a protected call on a page without one', async () => {
    let meta = '';
    const page = { querySelector: () => ({ get content() { return meta; }, setAttribute: (_: string, v: string) => (meta = v) }) } as unknown as Pick<Document, 'querySelector'>;
    const calls: { url: string; init: RequestInit }[] = [];
    const impl = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(url === '/api/csrf' ? '{"token":"fresh"}' : '{}', { status: 200 });
    }) as unknown as typeof fetch;
    await apiFetch('/api/profile', { body: {}, csrf: true, fetchImpl: impl, doc: page });
    expect(calls.map((c) => c.url)).toEqual(['/api/csrf', '/api/profile']);
    expect((calls[1]!.init.headers as Record<string, string>)[CSRF_HEADER]).toBe('fresh');
    expect(meta).toBe('fresh');
  });

  it('turns an error answer into an ApiError with the server message', async () => {
    const f = fakeFetch(400, '{"error":"request body has invalid fields","problems":{"email":"not an email"}}');
    const err = await apiFetch('/api/profile', { body: {}, fetchImpl: f.impl, doc: doc('t') }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: 'request body has invalid fields', problems: { email: 'not an email' } });
  });

  it('copes with a non-JSON error page', async () => {
    const f = fakeFetch(502, '<html>Bad gateway</html>');
    await expect(apiFetch('/api/x', { fetchImpl: f.impl, doc: doc('') })).rejects.toMatchObject({ status: 502 });
  });
});

describe('apiErrorText', () => {
  it('tells the first field problem, else the message; anything else gets the fallback', () => {
    expect(apiErrorText(new ApiError(400, 'request body has invalid fields', { quantity: 'must be from 0 to 10000 units' }), 'x')).toBe('Quantity must be from 0 to 10000 units.');
    expect(apiErrorText(new ApiError(400, 'request body has invalid fields', { 'deliver_to.postcode': 'enter a UK postcode such as EX1 2AB' }), 'x')).toBe('Enter a UK postcode such as EX1 2AB.');
    expect(apiErrorText(new ApiError(400, 'request body has invalid fields', { active_coupon_id: 'is required' }), 'x')).toBe('Coupon code is required.');
    expect(apiErrorText(new ApiError(400, 'request body has invalid fields', { delivery_option: 'is not one of the shop\'s delivery options' }), 'x')).toBe("Delivery option is not one of the shop's delivery options.");
    expect(apiErrorText(new ApiError(409, 'only 3 units of Gold Balloons are in stock'), 'x')).toBe('Only 3 units of Gold Balloons are in stock.');
    expect(apiErrorText(new ApiError(409, 'Coupon expired.'), 'x')).toBe('Coupon expired.');
    expect(apiErrorText(new TypeError('fetch failed'), 'Could not add. Try again.')).toBe('Could not add. Try again.');
  });
});

describe('fieldProblems', () => {
  it('gives each field problem as a sentence, by field, and nothing for other errors', () => {
    const err = new ApiError(400, 'request body has invalid fields', { 'address.postcode': 'enter a UK postcode such as EX1 2AB', telephone: 'must be at least 7 digits' });
    expect(fieldProblems(err)).toEqual({ 'address.postcode': 'Enter a UK postcode such as EX1 2AB.', telephone: 'Telephone must be at least 7 digits.' });
    expect(fieldProblems(new ApiError(409, 'your basket is empty'))).toEqual({});
    expect(fieldProblems(new TypeError('fetch failed'))).toEqual({});
  });
});
