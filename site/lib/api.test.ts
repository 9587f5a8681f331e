import { describe, expect, it } from 'vitest';
import { ApiError, CSRF_HEADER, apiErrorText, apiFetch, apiFetchBlob, ensureCsrfToken, fieldProblems, isExpectedFailure } from './api';
import { reportError, setReportSink, type ErrorReport } from './report';

const doc = (token: string | null) =>
  ({
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

/** A page whose csrf-token meta tag starts with content and can be filled in. */
function metaPage(content: string) {
  let meta = content;
  const tag = {
    get content() {
      return meta;
    },
    setAttribute: (_: string, v: string) => (meta = v),
  };
  return { doc: { querySelector: () => tag } as unknown as Pick<Document, 'querySelector'>, content: () => meta };
}

type Answer = string | [number, string] | (() => [number, string]);

/** A fetch that answers by path (200 '{}' for any other) and records every call. */
function recorder(answers: Record<string, Answer>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    await new Promise((r) => setTimeout(r, 1)); // answers come later, as over a network
    const a = answers[url] ?? '{}';
    const [status, body] = typeof a === 'string' ? [200, a] : typeof a === 'function' ? a() : a;
    return new Response(body, { status });
  }) as unknown as typeof fetch;
  return {
    impl,
    calls,
    urls: () => calls.map((c) => c.url),
    header: (i: number) => (calls[i]!.init.headers as Record<string, string>)[CSRF_HEADER],
  };
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

  it('fetches the token first on a page without one, for reads too, and sends it', async () => {
    const page = metaPage('');
    const calls = recorder({ '/api/csrf': '{"token":"fresh"}' });
    await apiFetch('/api/getProfile', { body: {}, fetchImpl: calls.impl, doc: page.doc });
    expect(calls.urls()).toEqual(['/api/csrf', '/api/getProfile']);
    expect(calls.header(1)).toBe('fresh');
    expect(page.content()).toBe('fresh');
  });

  it('asks for the token once when calls start together, and every call carries it', async () => {
    const page = metaPage('');
    const calls = recorder({ '/api/csrf': '{"token":"one"}' });
    await Promise.all(['/api/shoppingCartSmall', '/api/getProfile', '/api/prices'].map((p) => apiFetch(p, { body: {}, fetchImpl: calls.impl, doc: page.doc })));
    await apiFetch('/api/basket/add', { body: {}, csrf: true, fetchImpl: calls.impl, doc: page.doc });
    expect(calls.urls().filter((u) => u === '/api/csrf')).toHaveLength(1);
    expect(calls.calls.filter((c) => c.url !== '/api/csrf').map((c) => (c.init.headers as Record<string, string>)[CSRF_HEADER])).toEqual([
      'one',
      'one',
      'one',
      'one',
    ]);
  });

  it('fills the meta tag on load (ensureCsrfToken) so the first call needs no token request', async () => {
    const page = metaPage('');
    const calls = recorder({ '/api/csrf': '{"token":"onload"}' });
    await ensureCsrfToken({ fetchImpl: calls.impl, doc: page.doc });
    expect(page.content()).toBe('onload');
    await apiFetch('/api/getProfile', { body: {}, fetchImpl: calls.impl, doc: page.doc });
    expect(calls.urls()).toEqual(['/api/csrf', '/api/getProfile']);
    expect(calls.header(1)).toBe('onload');
  });

  it('a read still goes out when the token cannot be had; a protected call fails; the next call asks again', async () => {
    const page = metaPage('');
    const calls = recorder({ '/api/csrf': [503, '{}'] });
    await expect(apiFetch('/api/search?q=x', { method: 'GET', fetchImpl: calls.impl, doc: page.doc })).resolves.toEqual({});
    expect(Object.keys(calls.calls[1]!.init.headers as object)).not.toContain(CSRF_HEADER);
    await expect(apiFetch('/api/profile', { body: {}, csrf: true, fetchImpl: calls.impl, doc: page.doc })).rejects.toMatchObject({ status: 503 });
    expect(calls.urls()).toEqual(['/api/csrf', '/api/search?q=x', '/api/csrf']);
  });

  it('a protected call refused with 403 for a stale token gets the token again and is sent once more', async () => {
    const page = metaPage('stale');
    let refusals = 1;
    const calls = recorder({
      '/api/csrf': '{"token":"current"}',
      '/api/basket/add': () => (refusals-- > 0 ? [403, '{"error":"reload","code":"csrf_token"}'] : [200, '{"ok":true}']),
    });
    await expect(apiFetch('/api/basket/add', { body: {}, csrf: true, fetchImpl: calls.impl, doc: page.doc })).resolves.toEqual({ ok: true });
    expect(calls.urls()).toEqual(['/api/basket/add', '/api/csrf', '/api/basket/add']);
    expect([calls.header(0), calls.header(2)]).toEqual(['stale', 'current']);
    // A read refused with 403 is not repeated.
    const reads = recorder({ '/api/x': [403, '{"error":"no"}'] });
    await expect(apiFetch('/api/x', { fetchImpl: reads.impl, doc: doc('t') })).rejects.toMatchObject({ status: 403 });
    expect(reads.urls()).toEqual(['/api/x']);
  });

  it('repeats a protected call only once, and only for the stale-token 403', async () => {
    // Still refused after the new token: the second 403 is the answer, no third call.
    const page = metaPage('stale');
    const always = recorder({ '/api/csrf': '{"token":"current"}', '/api/basket/add': [403, '{"error":"reload","code":"csrf_token"}'] });
    await expect(apiFetch('/api/basket/add', { body: {}, csrf: true, fetchImpl: always.impl, doc: page.doc })).rejects.toMatchObject({
      status: 403,
      message: 'reload',
      code: 'csrf_token',
    });
    expect(always.urls()).toEqual(['/api/basket/add', '/api/csrf', '/api/basket/add']);
    expect([always.header(0), always.header(2)]).toEqual(['stale', 'current']);
    // A cross-site 403, or a 403 without the code, is final: no token request, no repeat.
    for (const body of ['{"error":"not from this shop","code":"cross_site"}', '{"error":"forbidden"}', 'Forbidden']) {
      const other = recorder({ '/api/csrf': '{"token":"current"}', '/api/basket/add': [403, body] });
      const err = await apiFetch('/api/basket/add', { body: {}, csrf: true, fetchImpl: other.impl, doc: metaPage('t').doc }).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 403 });
      // The code is kept, for the page to tell a refusal it can act on from the others.
      expect((err as ApiError).code).toBe(body.includes('cross_site') ? 'cross_site' : undefined);
      expect(other.urls()).toEqual(['/api/basket/add']);
    }
  });

  it('turns an error answer into an ApiError with the server message', async () => {
    const f = fakeFetch(
      400,
      '{"error":"Some fields need correcting: each problem is listed by its field.","problems":{"email":"Enter an email address such as buyer@yourshop.co.uk."}}',
    );
    const err = await apiFetch('/api/profile', { body: {}, fetchImpl: f.impl, doc: doc('t') }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      message: 'Some fields need correcting: each problem is listed by its field.',
      problems: { email: 'Enter an email address such as buyer@yourshop.co.uk.' },
    });
  });

  it("keeps the whole answer, a catalogue import's 422 file_problems among it", async () => {
    const body =
      '{"error":"The files have 2 problems, so nothing was written: correct them and check the files again.","file_problems":[{"line":3,"column":"pack size","problem":"The pack size must be …."}],"file_problem_count":2}';
    const err = await apiFetch('/api/admin/catalogue/check', { body: {}, fetchImpl: fakeFetch(422, body).impl, doc: doc('t') }).catch((e: ApiError) => e);
    expect(err).toMatchObject({ status: 422, problems: undefined });
    expect((err as ApiError).answer).toEqual(JSON.parse(body));
    expect(apiErrorText(err, 'x')).toBe('The files have 2 problems, so nothing was written: correct them and check the files again.');
  });

  it('sends a raw body (a picture) as it is, with its own type', async () => {
    const f = fakeFetch(200, '{"name":"a.png"}');
    const picture = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    await apiFetch('/api/admin/catalogue/images?name=a.png', { method: 'POST', rawBody: picture, csrf: true, fetchImpl: f.impl, doc: doc('t') });
    const init = f.calls[0]!.init;
    expect(init.body).toBe(picture);
    expect(init.headers).toMatchObject({ 'Content-Type': 'image/png', [CSRF_HEADER]: 't' });
  });

  it('keeps the order a refused order points at (409 with order_id)', async () => {
    const f = fakeFetch(409, '{"error":"This basket was just ordered: see order TS-100123.","order_id":"TS-100123"}');
    const err = await apiFetch('/api/orders', { body: {}, fetchImpl: f.impl, doc: doc('t') }).catch((e) => e);
    expect(err).toMatchObject({ status: 409, message: 'This basket was just ordered: see order TS-100123.', orderId: 'TS-100123' });
    const plain = await apiFetch('/api/orders', { body: {}, fetchImpl: fakeFetch(409, '{"error":"x","order_id":""}').impl, doc: doc('t') }).catch(
      (e: ApiError) => e,
    );
    expect(plain).toMatchObject({ status: 409, orderId: undefined });
  });

  it('copes with a non-JSON error page', async () => {
    const f = fakeFetch(502, '<html>Bad gateway</html>');
    await expect(apiFetch('/api/x', { fetchImpl: f.impl, doc: doc('') })).rejects.toMatchObject({ status: 502 });
  });
});

describe('apiFetchBlob', () => {
  it('answers the body of a 2xx as a Blob of its type, sent like any call with the bearer header', async () => {
    const calls: RequestInit[] = [];
    const impl = (async (_: string, init: RequestInit) => {
      calls.push(init);
      return new Response('%PDF-1.7 x', { status: 200, headers: { 'Content-Type': 'application/pdf' } });
    }) as unknown as typeof fetch;
    const blob = await apiFetchBlob('/api/orders/TS-1/invoice', 'application/pdf', {
      method: 'GET',
      headers: { Authorization: 'Bearer t' },
      fetchImpl: impl,
      doc: doc('csrf-1'),
    });
    expect(blob.type).toBe('application/pdf');
    await expect(blob.text()).resolves.toBe('%PDF-1.7 x');
    const headers = calls[0]!.headers as Record<string, string>;
    expect(calls[0]!.method).toBe('GET');
    expect(headers.Authorization).toBe('Bearer t');
    expect(headers.Accept).toMatch(/^application\/pdf, application\/json/);
    expect(headers[CSRF_HEADER]).toBe('csrf-1');
  });

  it('turns a JSON error answer into an ApiError, as apiFetch does', async () => {
    for (const [status, body] of [
      [404, '{"error":"no such order"}'],
      [409, '{"error":"the invoice is not issued yet"}'],
    ] as const) {
      const err = await apiFetchBlob('/api/orders/TS-1/invoice', 'application/pdf', {
        method: 'GET',
        fetchImpl: fakeFetch(status, body).impl,
        doc: doc('t'),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status, message: JSON.parse(body).error });
    }
    await expect(
      apiFetchBlob('/api/x', 'application/pdf', { method: 'GET', fetchImpl: fakeFetch(502, '<html>Bad gateway</html>').impl, doc: doc('t') }),
    ).rejects.toMatchObject({ status: 502 });
  });
});

describe('apiErrorText', () => {
  it('tells the first field problem, else the message, as sent; anything else gets the fallback', () => {
    expect(apiErrorText(new ApiError(400, 'Some fields need correcting.', { quantity: 'The quantity must be from 0 to 10000 units.' }), 'x')).toBe(
      'The quantity must be from 0 to 10000 units.',
    );
    expect(apiErrorText(new ApiError(400, 'Some fields need correcting.', { 'deliver_to.postcode': 'Enter a UK postcode such as EX1 2AB.' }), 'x')).toBe(
      'Enter a UK postcode such as EX1 2AB.',
    );
    expect(apiErrorText(new ApiError(409, 'Only 3 packs of Gold Balloons (18 units) are in stock.'), 'x')).toBe(
      'Only 3 packs of Gold Balloons (18 units) are in stock.',
    );
    expect(apiErrorText(new TypeError('fetch failed'), 'Could not add. Try again.')).toBe('Could not add. Try again.');
  });
});

describe('fieldProblems', () => {
  it('gives each field problem as sent, by field, and nothing for other errors', () => {
    const problems = {
      'address.postcode': 'Enter a UK postcode such as EX1 2AB.',
      telephone: 'Enter a telephone number of at least 7 digits, such as 01632 960 123.',
    };
    expect(fieldProblems(new ApiError(400, 'Some fields need correcting.', problems))).toEqual(problems);
    expect(fieldProblems(new ApiError(409, 'Your basket is empty.'))).toEqual({});
    expect(fieldProblems(new TypeError('fetch failed'))).toEqual({});
  });
});

describe('failed calls are reported with their status (docs/site-shell.md "Errors")', () => {
  async function reportsOf(status: number, body: string, reportAs?: 'basket') {
    const got: ErrorReport[] = [];
    const restore = setReportSink((r) => got.push(r));
    try {
      const err = await apiFetch('/api/orders?x=1', {
        method: 'GET',
        fetchImpl: fakeFetch(status, body).impl,
        doc: doc('t'),
        ...(reportAs && { reportAs }),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      reportError(err, { kind: 'other' }); // the caller's own report adds nothing
    } finally {
      setReportSink(restore);
    }
    return got;
  }

  it('a 500 is one api report naming the call, with its status', async () => {
    const got = await reportsOf(500, '{"error":"Something went wrong on our side."}');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      kind: 'api',
      name: 'ApiError',
      statusCode: 500,
      message: 'GET /api/orders answered 500: Something went wrong on our side.',
    });
  });

  it('a basket load says basket', async () => {
    const got = await reportsOf(503, '{}', 'basket');
    expect(got.map((r) => r.kind)).toEqual(['basket']);
  });

  it('the answers the page expects and shows are not reported', async () => {
    for (const status of [401, 403, 404, 409, 422, 429, 501]) expect(await reportsOf(status, '{"error":"No."}'), String(status)).toEqual([]);
    expect(await reportsOf(400, '{"error":"Check the form.","problems":{"quantity":"Enter a quantity."}}')).toEqual([]);
  });

  it('a 400 without field problems is the site sending what the API refuses: reported', async () => {
    expect(await reportsOf(400, '{"error":"The body is not JSON."}')).toHaveLength(1);
    expect(isExpectedFailure(400)).toBe(false);
    expect(isExpectedFailure(502)).toBe(false);
  });
});
