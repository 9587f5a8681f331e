import type { AuditEntry } from './admin';
import { formatPence, formatUkDateTime } from './format';

/** One field an audited change moved: its name in words and the value before and after. */
export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

/** Fields that hold pence (as the API answers an audit trail: by the amount's name, never
 * with a _pence suffix), and fields that hold a moment in Unix ms besides those ending _at
 * (a coupon's validity). */
const PENCE_FIELDS = new Set(['credit_limit', 'owed', 'amount', 'allocated', 'min_spend', 'total_inc_vat', 'applied']);
const MOMENT_FIELDS = new Set(['valid_from', 'valid_to']);

/** A field name in words: "credit_limit" is "credit limit", "dsc" "discounts". */
export function fieldWords(field: string): string {
  if (field === 'dsc') return 'discounts';
  return field.replace(/[_.]/g, ' ');
}

/** A value of a field as staff read it: pence as pounds, moments as UK dates, yes or no,
 * "none" for nothing; anything else as JSON. */
export function auditValue(field: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    if (PENCE_FIELDS.has(field)) return formatPence(value);
    if (MOMENT_FIELDS.has(field) || field.endsWith('_at')) return value === 0 ? 'none' : formatUkDateTime(value);
    return String(value);
  }
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Fields every entry of a kind carries that say nothing to staff: an order's version
 * moves on with every action. */
const UNSHOWN = new Set(['version']);

/** The fields an entry changed, in the order they first appear (before's, then any only
 * after has); a field the same either side (a coupon's untouched fields) is left out. */
export function auditChanges(e: Pick<AuditEntry, 'before' | 'after'>): AuditChange[] {
  const { before, after } = e;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => !UNSHOWN.has(f));
  return fields.map((f) => ({ field: fieldWords(f), before: auditValue(f, before[f]), after: auditValue(f, after[f]) })).filter((c) => c.before !== c.after);
}

/** An audited action as a heading: "pay" is "Pay", "coupon created" "Coupon created", and
 * a stock change keeps its reason ("Stock adjust: Delivery from the printer"). */
export function actionWords(action: string): string {
  const t = action.replace(/_/g, ' ').trim();
  return t ? t[0]!.toUpperCase() + t.slice(1) : 'Change';
}
