/** An account's own discounts (`dsc`): a JSON object of key to whole percent, "" for none
 * (docs/pricing.md). Keys name a product, a category or a range; the server's check is
 * pricing.MergeDiscounts, which this mirrors so staff see every problem before saving. */

/** "range:{urlText}", "category:{id}" or "product:{sku}", as functions/internal/pricing's
 * discountKey. */
export const DISCOUNT_KEY = /^(range:[a-z0-9_-]+|category:\d+|product:[A-Z0-9-]+)$/;

/** The field a problem of the whole text goes under, and the prefix of a key's own
 * problems ("dsc.range:wholesale-christmas"), as the API's 400 names them. */
export const DSC_FIELD = 'dsc';
export const dscKeyField = (key: string) => `${DSC_FIELD}.${key}`;

/** What a dsc text holds: the text to send (compact JSON, "" for none) or its problems,
 * by field (DSC_FIELD for the whole text, dscKeyField(key) for one discount). */
export type DscCheck = { ok: true; dsc: string } | { ok: false; problems: Record<string, string> };

/** Checks discounts as staff typed them. Empty text, and an empty object, are no discounts. */
export function checkDsc(text: string): DscCheck {
  const t = text.trim();
  if (!t) return { ok: true, dsc: '' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return {
      ok: false,
      problems: { [DSC_FIELD]: 'Discounts must be a JSON object such as {"range:wholesale-christmas": 10}: check the quotes, colons and commas.' },
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problems: { [DSC_FIELD]: 'Discounts must be a JSON object of key to percent, such as {"product:GC101-00001": 15}.' } };
  }
  const problems: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!DISCOUNT_KEY.test(key)) {
      problems[dscKeyField(key)] = `"${key}" is not a discount key: use range:{range}, category:{number} or product:{SKU}.`;
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100) {
      problems[dscKeyField(key)] = `The discount of "${key}" must be a whole percent from 0 to 100.`;
    }
  }
  if (Object.keys(problems).length) return { ok: false, problems };
  return { ok: true, dsc: Object.keys(parsed).length ? JSON.stringify(parsed) : '' };
}

/** A stored dsc laid out for editing: one key to a line; "" stays "". A text that does not
 * parse is shown as it is, for staff to mend. */
export function dscForEditing(dsc: string): string {
  if (!dsc.trim()) return '';
  try {
    const parsed = JSON.parse(dsc) as unknown;
    return typeof parsed === 'object' && parsed !== null ? JSON.stringify(parsed, null, 2) : dsc;
  } catch {
    return dsc;
  }
}

/** The dsc problems of a 400's problems (fieldProblems of lib/api.ts), split into the
 * whole text's and each key's, for the form to show under the discounts box. */
export function dscProblemsOf(problems: Record<string, string>): { whole: string | null; keys: [string, string][] } {
  const keys: [string, string][] = [];
  for (const [field, problem] of Object.entries(problems)) {
    if (field.startsWith(`${DSC_FIELD}.`)) keys.push([field.slice(DSC_FIELD.length + 1), problem]);
  }
  return { whole: problems[DSC_FIELD] ?? null, keys };
}
