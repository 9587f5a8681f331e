import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VIEWER_REQUEST_FUNCTION_PATH } from '../lib/static-site';
import { loadViewerResponse, responseEvent } from './viewer-response-function';

// Runs the CloudFront function's real source in Node against builds/edge-test-vectors.json,
// the file the Go local edge's tests also run, so the two edges cannot drift apart.
// CloudFront around the function is stood in for by the smallest honest model: the
// KeyValueStore as the release writes it, and S3 as the vectors' file list. A request the
// function forwards for a key S3 lacks goes to the notFound origin (the Go handler, whose
// body and crawler rule the Go vectors test checks), so here it must be a 404 of S3. A page
// S3 answers then passes through the viewer-response function (the pages behaviour's),
// which must set X-Robots-Tag as the vector's robots says; it is run with the request both
// as the viewer sent it and as this function rewrote it, since either reads the same.

interface Vector {
  name: string;
  path: string;
  query?: string;
  userAgent?: string;
  status: number;
  location?: string;
  body?: string;
  notBody?: string;
  robots?: string;
}
interface VectorFile {
  files: Record<string, string>;
  build: { redirects: { source: string; target: string; status: number }[] };
  vectors: Vector[];
}

const vectorsPath = path.resolve(__dirname, '..', '..', 'builds', 'edge-test-vectors.json');
const vf = JSON.parse(readFileSync(vectorsPath, 'utf8')) as VectorFile;

type Header = { value: string };
type Query = Record<string, { value: string; multiValue?: { value: string }[] }>;
interface CfRequest {
  method: string;
  uri: string;
  querystring: Query;
  headers: Record<string, Header>;
}
interface CfResponse {
  statusCode: number;
  headers?: Record<string, Header>;
}
type Handler = (event: { version: string; context: object; viewer: object; request: CfRequest }) => Promise<CfRequest | CfResponse>;

/** A KeyValueStore that answers like CloudFront's: get() rejects for a missing key. */
function keyValueStore(entries: Record<string, string>) {
  return {
    async get(key: string, options?: { format?: string }) {
      if (!(key in entries)) throw new Error(`key ${key} not found`);
      const value = entries[key]!;
      return options?.format === 'json' ? JSON.parse(value) : value;
    },
  };
}

/** Loads the function's source as CloudFront does, with `cloudfront` bound to kvs. */
function loadHandler(kvs: ReturnType<typeof keyValueStore>): Handler {
  const source = readFileSync(VIEWER_REQUEST_FUNCTION_PATH, 'utf8');
  const importLine = "import cf from 'cloudfront';";
  expect(source).toContain(importLine);
  return new Function('cf', `${source.replace(importLine, '')}\nreturn handler;`)({ kvs: () => kvs }) as Handler;
}

/** CloudFront's parsed query string for a raw one ("a=1&b"). */
function parseQuery(raw = ''): Query {
  const q: Query = {};
  for (const part of raw.split('&').filter(Boolean)) {
    const [name, value = ''] = part.split('=');
    q[name!] = { value };
  }
  return q;
}

function event(v: Pick<Vector, 'path' | 'query' | 'userAgent'>) {
  const headers: Record<string, Header> = { host: { value: 'shop.test' } };
  if (v.userAgent) headers['user-agent'] = { value: v.userAgent };
  return { version: '1.0', context: {}, viewer: { ip: '192.0.2.1' }, request: { method: 'GET', uri: v.path, querystring: parseQuery(v.query), headers } };
}

const isResponse = (r: CfRequest | CfResponse): r is CfResponse => 'statusCode' in r;

// The current build's rules as the release puts them in the KeyValueStore.
const buildId = 'vectors';
const kvsEntries: Record<string, string> = { build: buildId };
for (const r of vf.build.redirects) kvsEntries[`r:${buildId}:${r.source}`] = JSON.stringify({ target: r.target, status: r.status });

describe('CloudFront viewer-request function: shared edge vectors', () => {
  const handler = loadHandler(keyValueStore(kvsEntries));
  it('has vectors to run', () => expect(vf.vectors.length).toBeGreaterThan(5));

  const viewerResponse = loadViewerResponse().handler;
  it.each(vf.vectors)('$name', async (v) => {
    const out = await handler(event(v));
    if (isResponse(out)) {
      expect(out.statusCode).toBe(v.status);
      expect(out.headers?.location?.value).toBe(v.location);
      // An answer this function makes goes to the viewer as it is.
      expect(out.headers?.['x-robots-tag']).toBeUndefined();
      expect(v.robots).toBeUndefined();
      return;
    }
    // Forwarded to S3 (origin path /site): the key is the rewritten uri.
    expect(v.location).toBeUndefined();
    const object = vf.files[out.uri.slice(1)];
    if (v.status === 200) {
      expect(object, `S3 has ${out.uri}`).toBeDefined();
      expect(object).toContain(v.body ?? '');
      for (const request of [out, event(v).request]) {
        const answered = await viewerResponse(responseEvent(request, 200));
        expect(answered.headers['x-robots-tag']?.value, `X-Robots-Tag for ${request.uri}`).toBe(v.robots);
      }
    } else {
      expect(v.status).toBe(404);
      expect(object, `S3 must lack ${out.uri} so the notFound origin answers`).toBeUndefined();
    }
  });
});

describe('CloudFront viewer-request function: beyond the vectors', () => {
  it('serves without route rules when the store has no current build', async () => {
    const handler = loadHandler(keyValueStore({}));
    const out = await handler(event({ path: '/christmas/' }));
    expect(isResponse(out)).toBe(false);
    expect((out as CfRequest).uri).toBe('/christmas/index.html');
  });

  it("uses only the current build's rules", async () => {
    const handler = loadHandler(keyValueStore({ ...kvsEntries, build: 'newer' }));
    const out = await handler(event({ path: '/christmas/' }));
    expect(isResponse(out)).toBe(false);
  });

  it('keeps repeated query parameters on the trailing-slash redirect', async () => {
    const handler = loadHandler(keyValueStore(kvsEntries));
    const e = event({ path: '/outlet/r/wholesale_balloons' });
    e.request.querystring = { tag: { value: 'a', multiValue: [{ value: 'a' }, { value: 'b' }] }, x: { value: '1' } };
    const out = (await handler(e)) as CfResponse;
    expect(out.headers?.location?.value).toBe('/outlet/r/wholesale_balloons/?tag=a&tag=b&x=1');
  });

  it('never looks rules up for files', async () => {
    let lookups = 0;
    const kvs = keyValueStore(kvsEntries);
    const counting = { get: (k: string, o?: { format?: string }) => (lookups++, kvs.get(k, o)) };
    const handler = loadHandler(counting);
    await handler(event({ path: '/_next/static/chunks/app.js' }));
    expect(lookups).toBe(0);
  });

  it('is small enough for CloudFront Functions (10 KB)', () => {
    expect(readFileSync(VIEWER_REQUEST_FUNCTION_PATH).length).toBeLessThan(10_240);
  });
});
