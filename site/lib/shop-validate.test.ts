import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { validateShop, type ShopSchema } from './shop-validate.mjs';

vi.mock('server-only', () => ({}));
const { parseShopConfig } = await import('./shop-config');

// functions/config/shop-vectors.json, the cases functions/config/validate_test.go runs
// too: the same shop.json must get the same message, word for word, on both sides.
const dir = path.resolve(import.meta.dirname, '..', '..', 'functions', 'config');
const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
const schema = JSON.parse(read('shop-schema.json')) as ShopSchema;
const { vectors } = JSON.parse(read('shop-vectors.json')) as {
  vectors: { name: string; set?: Record<string, unknown>; delete?: string[]; error: string | null }[];
};

type Json = Record<string, unknown> | unknown[];

function container(doc: Json, parts: string[]): Json {
  let at: unknown = doc;
  for (const p of parts) at = Array.isArray(at) ? at[Number(p)] : (at as Record<string, unknown>)[p];
  if (typeof at !== 'object' || at === null) throw new Error(`vector path ${parts.join('.')} is not an object or list`);
  return at as Json;
}

function apply(v: (typeof vectors)[number]): unknown {
  const doc = JSON.parse(read('shop.json')) as Json;
  for (const p of v.delete ?? []) {
    const parts = p.split('.');
    const c = container(doc, parts.slice(0, -1)) as Record<string, unknown>;
    if (!Object.hasOwn(c, parts.at(-1)!)) throw new Error(`${v.name}: nothing to delete at ${p}`);
    delete c[parts.at(-1)!];
  }
  for (const p of Object.keys(v.set ?? {}).sort()) {
    const parts = p.split('.');
    const c = container(doc, parts.slice(0, -1));
    const last = parts.at(-1)!;
    if (Array.isArray(c)) c[Number(last)] = v.set![p];
    else c[last] = v.set![p];
  }
  return doc;
}

describe('shop.json validation (functions/config/shop-vectors.json)', () => {
  it('has the cases the issue asks for', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(10);
    const errors = vectors.map((v) => v.error ?? '');
    expect(errors).toContain('shop.json: unknown key freeDeliveryTresholdPence');
    expect(errors).toContain('shop.json: minimumOrderPence must not be negative');
    expect(errors).toContain('shop.json: business.vatNumber is missing');
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_, v) => {
    const doc = apply(v);
    if (v.error === null) expect(() => validateShop(doc, schema)).not.toThrow();
    else expect(() => validateShop(doc, schema)).toThrow(new Error(v.error));
  });

  it('reads the text through the same check the build uses', () => {
    const text = read('shop.json').replace('"freeDeliveryThresholdPence"', '"freeDeliveryTresholdPence"');
    expect(() => parseShopConfig(text, schema)).toThrow('shop.json: unknown key freeDeliveryTresholdPence; freeDeliveryThresholdPence is missing');
    expect(() => parseShopConfig('{', schema)).toThrow(/^shop\.json: not valid JSON/);
    expect(parseShopConfig(read('shop.json'), schema).business.vatNumber).toMatch(/^GB/);
  });
});
