import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VIEWER_RESPONSE_FUNCTION_PATH } from '../lib/static-site';
import { loadViewerResponse, responseEvent } from './viewer-response-function';

// The viewer-response function beyond the shared vectors, which viewer-request.test.ts runs
// through both functions: its key list is the vectors' (and so the Go edge's), and it reads
// CloudFront's parsed query string whatever its shape.

const vectorsPath = path.resolve(__dirname, '..', '..', 'builds', 'edge-test-vectors.json');
const vf = JSON.parse(readFileSync(vectorsPath, 'utf8')) as { filteredViewKeys: string[] };
const { handler, filteredViewKeys } = loadViewerResponse();

const request = (uri: string, querystring: Record<string, { value: string; multiValue?: { value: string }[] }>) => ({
  method: 'GET',
  uri,
  querystring,
  headers: { host: { value: 'shop.test' } },
});

describe('CloudFront viewer-response function', () => {
  it("marks the vectors' filtered-view keys, the Go edge's list", () => {
    expect(filteredViewKeys).toEqual(vf.filteredViewKeys);
  });

  it.each(vf.filteredViewKeys)('marks a page asked for with %s noindex', async (key) => {
    const out = await handler(responseEvent(request('/outlet/section/birthday/101/', { [key]: { value: '1' } }), 200));
    expect(out.headers['x-robots-tag']).toEqual({ value: 'noindex' });
  });

  it('reads a repeated key as CloudFront parses it', async () => {
    const qs = { occasion: { value: 'birthday', multiValue: [{ value: 'birthday' }, { value: 'wedding' }] } };
    const out = await handler(responseEvent(request('/outlet/index.html', qs), 200));
    expect(out.headers['x-robots-tag']).toEqual({ value: 'noindex' });
  });

  it('leaves the other headers, and a request with no query string, alone', async () => {
    const e = responseEvent(request('/', {}), 200);
    e.response.headers['cache-control'] = { value: 'public, max-age=0, s-maxage=60' };
    const out = await handler(e);
    expect(out.headers).toEqual({ 'cache-control': { value: 'public, max-age=0, s-maxage=60' } });
  });

  it('is small enough for CloudFront Functions (10 KB)', () => {
    expect(readFileSync(VIEWER_RESPONSE_FUNCTION_PATH).length).toBeLessThan(10_240);
  });
});
