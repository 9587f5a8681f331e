// The site's side of shop.json's check: interprets functions/config/shop-schema.json
// exactly as functions/config/validate.go does, with the same messages, so a shop.json
// the Go functions refuse is refused by the build too (and the other way round). Both
// are tested on functions/config/shop-vectors.json. Plain JavaScript so scripts/build.mjs
// (Node, no TypeScript) and the site (Next) share it.

const COMMENT = '$comment';
const TYPE_WORDS = { object: 'an object', list: 'a list', map: 'an object', string: 'text', integer: 'a whole number', boolean: 'true or false' };

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const join = (path, key) => (path ? `${path}.${key}` : key);
// Byte order, as Go's sort.Strings (the keys are ASCII in practice).
const sorted = (keys) => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const quote = (s) => JSON.stringify(s);
// Go's strings.TrimSpace and utf8.RuneCountInString.
const runes = (s) => [...s].length;

function check(rule, v, path, problems) {
  const name = path || 'the file';
  const add = (m) => problems.push(m);
  switch (rule.type) {
    case 'object': {
      if (!isObject(v)) return add(`${name} must be ${TYPE_WORDS[rule.type]}`);
      for (const k of sorted(Object.keys(v))) if (!Object.hasOwn(rule.fields, k) && k !== COMMENT) add(`unknown key ${join(path, k)}`);
      if (COMMENT in v && typeof v[COMMENT] !== 'string') add(`${join(path, COMMENT)} must be text`);
      for (const k of sorted(Object.keys(rule.fields))) {
        if (Object.hasOwn(v, k)) check(rule.fields[k], v[k], join(path, k), problems);
        else add(`${join(path, k)} is missing`);
      }
      return;
    }
    case 'list': {
      if (!Array.isArray(v)) return add(`${name} must be ${TYPE_WORDS[rule.type]}`);
      if (rule.minItems !== undefined && v.length < rule.minItems) add(`${name} must list at least ${rule.minItems}`);
      const seen = new Set();
      v.forEach((item, i) => {
        const at = `${path}[${i}]`;
        check(rule.items, item, at, problems);
        if (!rule.uniqueBy || !isObject(item) || typeof item[rule.uniqueBy] !== 'string') return;
        const id = item[rule.uniqueBy];
        if (seen.has(id)) add(`${at}.${rule.uniqueBy} ${quote(id)} is listed twice`);
        seen.add(id);
      });
      return;
    }
    case 'map': {
      if (!isObject(v)) return add(`${name} must be ${TYPE_WORDS[rule.type]}`);
      const keyPattern = new RegExp(rule.keyPattern ?? '');
      for (const k of sorted(Object.keys(v))) {
        if (k === COMMENT) {
          if (typeof v[k] !== 'string') add(`${join(path, k)} must be text`);
          continue;
        }
        if (rule.keyPattern && !keyPattern.test(k)) {
          add(`${name}: key ${quote(k)} must be ${rule.keyHint}`);
          continue;
        }
        check(rule.values, v[k], join(path, k), problems);
      }
      return;
    }
    case 'string': {
      if (typeof v !== 'string') return add(`${name} must be ${TYPE_WORDS[rule.type]}`);
      if (rule.minLength !== undefined && runes(v.trim()) < rule.minLength) add(`${name} must not be empty`);
      else if (rule.maxLength !== undefined && runes(v) > rule.maxLength) add(`${name} must be at most ${rule.maxLength} characters`);
      else if (rule.pattern && !new RegExp(rule.pattern).test(v)) add(`${name} ${quote(v)} must be ${rule.hint}`);
      return;
    }
    case 'integer': {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) return add(`${name} must be ${TYPE_WORDS[rule.type]}`);
      if (rule.min !== undefined && v < rule.min) add(rule.min === 0 ? `${name} must not be negative` : `${name} must be at least ${rule.min}`);
      else if (rule.max !== undefined && v > rule.max) add(`${name} must be at most ${rule.max}`);
      return;
    }
    case 'boolean':
      if (typeof v !== 'boolean') add(`${name} must be ${TYPE_WORDS[rule.type]}`);
      return;
    default:
      throw new Error(`shop-schema.json: unknown type ${rule.type} at ${name}`);
  }
}

/** Every problem of a parsed shop.json under the schema, in key order; [] when valid. */
export function shopProblems(shop, schema) {
  const problems = [];
  check(schema, shop, '', problems);
  return problems;
}

/** Throws "shop.json: a; b" (Go's message, word for word) unless shop meets the schema;
 * answers shop. */
export function validateShop(shop, schema) {
  const problems = shopProblems(shop, schema);
  if (problems.length) throw new Error(`shop.json: ${problems.join('; ')}`);
  return shop;
}

/** Parses and validates shop.json's text; a parse error is named as Go names it in part. */
export function parseShop(text, schema) {
  let shop;
  try {
    shop = JSON.parse(text);
  } catch (err) {
    throw new Error(`shop.json: not valid JSON: ${err.message}`);
  }
  return validateShop(shop, schema);
}
