import { describe, expect, it } from 'vitest';
import { checkDsc, dscForEditing, dscProblemsOf } from './discounts';

describe('checkDsc', () => {
  it('takes no discounts as ""', () => {
    expect(checkDsc('')).toEqual({ ok: true, dsc: '' });
    expect(checkDsc('  \n ')).toEqual({ ok: true, dsc: '' });
    expect(checkDsc('{}')).toEqual({ ok: true, dsc: '' });
  });

  it('sends good discounts as compact JSON', () => {
    const text = '{\n  "range:wholesale-christmas": 10,\n  "category:803": 0,\n  "product:GC101-00001": 100\n}';
    expect(checkDsc(text)).toEqual({ ok: true, dsc: '{"range:wholesale-christmas":10,"category:803":0,"product:GC101-00001":100}' });
  });

  it('says the whole text is wrong when it is not a JSON object', () => {
    for (const text of ['{"range:x": 10,}', '[1, 2]', '10', '"range:x"', 'null']) {
      const r = checkDsc(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(Object.keys(r.problems), text).toEqual(['dsc']);
    }
  });

  it('names each key that is wrong, and why', () => {
    const r = checkDsc('{"range:xmas": 10, "sku:AB": 5, "category:12": 101, "product:gc101": 5, "range:ok": 7.5, "category:9": "10", "product:AB-1": -1}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.problems).sort()).toEqual([
      'dsc.category:12',
      'dsc.category:9',
      'dsc.product:AB-1',
      'dsc.product:gc101',
      'dsc.range:ok',
      'dsc.sku:AB',
    ]);
    expect(r.problems['dsc.sku:AB']).toMatch(/not a discount key/);
    expect(r.problems['dsc.category:12']).toMatch(/whole percent from 0 to 100/);
  });
});

describe('dscForEditing', () => {
  it('lays a stored dsc out one key to a line', () => {
    expect(dscForEditing('{"range:a":5,"category:1":10}')).toBe('{\n  "range:a": 5,\n  "category:1": 10\n}');
    expect(dscForEditing('')).toBe('');
    expect(dscForEditing('not json')).toBe('not json');
  });
});

describe('dscProblemsOf', () => {
  it("splits a 400's problems into the whole text's and each key's", () => {
    expect(dscProblemsOf({ dsc: 'Discounts are wrong.', 'dsc.range:x': 'Too much.', credit_limit: 'Required.' })).toEqual({
      whole: 'Discounts are wrong.',
      keys: [['range:x', 'Too much.']],
    });
    expect(dscProblemsOf({})).toEqual({ whole: null, keys: [] });
  });
});
