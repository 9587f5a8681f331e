import type { AccountChange, AdminAccount, Coupon, CouponInput } from './admin';
import { checkDsc } from './discounts';
import { decimalPrice, parsePounds } from './format';
import { addDays, daysBetween, isDay, londonDay, londonMidnight } from './london-dates';
import { characterProblem } from './validation';

// The back office's forms as plain functions: what a form holds (strings, as typed), what
// it sends, and its problems keyed by the API's field names, so the server's 400 problems
// land on the same fields. The server checks everything again.

/** A form's outcome: the body to send, or the problems by field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: Record<string, string> };

const checked = <T>(problems: Record<string, string>, value: () => T): Checked<T> =>
  Object.keys(problems).length ? { ok: false, problems } : { ok: true, value: value() };

/** A whole number typed into a form, or null when the text is not one. */
export function parseWhole(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,9}$/.test(t)) return null;
  return Number(t);
}

/** A field a 400 named under its body's object ("coupon.percent") by the field's own name. */
export const ownField = (field: string) => field.replace(/^(coupon|account|change)\./, '');

/** Pence as pounds in a form field: 125000 is "1250.00". */
export const poundsInput = (pence: number) => decimalPrice(pence);

/** The API's bounds (functions/internal/api/admin_*.go): a credit limit up to £1,000,000,
 * a coupon's amounts up to £100,000 and its limits up to 1,000,000 uses, stock up to
 * 10,000,000 units. */
export const MAX_CREDIT_LIMIT_PENCE = 100_000_000;
export const MAX_COUPON_PENCE = 10_000_000;
export const MAX_COUPON_USES = 1_000_000;
export const MAX_STOCK = 10_000_000;

// ——— Accounts ———

export interface AccountForm {
  approved: boolean;
  /** Pounds, as typed. */
  creditLimit: string;
  dsc: string;
  /** The price group's id, "" for none. */
  priceGroup: string;
}

/** What the account form sends: a credit limit (required when approved for credit) and
 * the discounts as compact JSON. */
export function checkAccountForm(f: AccountForm, account: Pick<AdminAccount, 'version'>): Checked<AccountChange> {
  const problems: Record<string, string> = {};
  let limit: number | null = null;
  if (f.approved) {
    limit = parsePounds(f.creditLimit);
    if (!f.creditLimit.trim()) problems.credit_limit = 'Enter the credit limit in pounds, such as 2000.';
    else if (limit === null || limit > MAX_CREDIT_LIMIT_PENCE)
      problems.credit_limit = 'Enter the credit limit in pounds, from 0 to 1,000,000, such as 2000 or 1500.50.';
  }
  const dsc = checkDsc(f.dsc);
  if (!dsc.ok) Object.assign(problems, dsc.problems);
  return checked(problems, () => ({
    version: account.version,
    approved_for_credit: f.approved,
    credit_limit: f.approved ? limit : null,
    dsc: dsc.ok ? dsc.dsc : '',
    price_group: f.priceGroup,
  }));
}

// ——— Coupons ———

export interface CouponForm {
  id: string;
  description: string;
  kind: 'percent' | 'fixed';
  percent: string;
  /** Pounds, as typed. */
  amount: string;
  minSpend: string;
  /** London days (YYYY-MM-DD), "" for none: the first day valid and the last. */
  validFrom: string;
  validTo: string;
  usageLimit: string;
  perAccountLimit: string;
}

/** The first London day a coupon is valid ('' for no start). */
export const firstDay = (validFrom: number) => (validFrom ? londonDay(validFrom) : '');

/** The last London day a coupon is valid: it stops at valid_to, so the day of the second
 * before ('' for no end). */
export const lastDay = (validTo: number) => (validTo ? londonDay(validTo - 1000) : '');

/** A form for a new coupon (no coupon) or holding one to edit. */
export function couponForm(c?: Coupon): CouponForm {
  if (!c)
    return { id: '', description: '', kind: 'percent', percent: '', amount: '', minSpend: '', validFrom: '', validTo: '', usageLimit: '', perAccountLimit: '' };
  return {
    id: c.id,
    description: c.description,
    kind: c.kind,
    percent: c.kind === 'percent' ? String(c.percent) : '',
    amount: c.kind === 'fixed' ? poundsInput(c.amount) : '',
    minSpend: c.min_spend ? poundsInput(c.min_spend) : '',
    validFrom: firstDay(c.valid_from),
    validTo: lastDay(c.valid_to),
    usageLimit: c.usage_limit ? String(c.usage_limit) : '',
    perAccountLimit: c.per_account_limit ? String(c.per_account_limit) : '',
  };
}

/** Coupon codes as the API takes them (pricing.ValidCouponID). */
export const COUPON_ID = /^[A-Z0-9]{3,20}$/;

/** What the coupon form sends. Editing, a day left as it was keeps the moment the coupon
 * had (an expired coupon's valid_to is the moment Expire was pressed, not a midnight);
 * a day typed starts (valid from) or ends (valid to, the day included) at London midnight. */
export function checkCouponForm(f: CouponForm, original?: Coupon): Checked<CouponInput> {
  const problems: Record<string, string> = {};
  const id = f.id.trim().toUpperCase();
  if (!COUPON_ID.test(id)) problems.id = 'Enter a code of 3 to 20 capital letters and digits, such as SPRING10.';
  const description = f.description.trim();
  const descriptionProblem = characterProblem('Description', description);
  const descriptionLength = [...description].length;
  if (descriptionLength < 3 || descriptionLength > 200) problems.description = 'Enter a description of 3 to 200 characters, as buyers will see it.';
  else if (descriptionProblem) problems.description = descriptionProblem;
  let percent = 0;
  let amount = 0;
  if (f.kind === 'percent') {
    const p = parseWhole(f.percent);
    if (p === null || p < 1 || p > 100) problems.percent = 'Enter a whole percent from 1 to 100.';
    else percent = p;
  } else {
    const a = parsePounds(f.amount);
    if (a === null || a === 0 || a > MAX_COUPON_PENCE) problems.amount = 'Enter the amount off in pounds, up to 100,000, such as 5 or 12.50.';
    else amount = a;
  }
  let minSpend = 0;
  if (f.minSpend.trim()) {
    const m = parsePounds(f.minSpend);
    if (m === null || m > MAX_COUPON_PENCE) problems.min_spend = 'Enter the minimum spend in pounds, up to 100,000, such as 50, or leave it empty for none.';
    else minSpend = m;
  }
  for (const [field, text] of [
    ['valid_from', f.validFrom],
    ['valid_to', f.validTo],
  ] as const) {
    if (text && !isDay(text)) problems[field] = 'Enter a date, or leave it empty.';
  }
  if (!problems.valid_from && !problems.valid_to && f.validFrom && f.validTo && daysBetween(f.validFrom, f.validTo) < 0) {
    problems.valid_to = 'The last day must be on or after the first day.';
  }
  const limits: Record<'usage_limit' | 'per_account_limit', number> = { usage_limit: 0, per_account_limit: 0 };
  for (const [field, text] of [
    ['usage_limit', f.usageLimit],
    ['per_account_limit', f.perAccountLimit],
  ] as const) {
    if (!text.trim()) continue;
    const n = parseWhole(text);
    if (n === null || n > MAX_COUPON_USES) problems[field] = 'Enter a whole number up to 1,000,000, or leave it empty for no limit.';
    else limits[field] = n;
  }
  const validFrom = () => (original && f.validFrom === firstDay(original.valid_from) ? original.valid_from : f.validFrom ? londonMidnight(f.validFrom) : 0);
  const validTo = () => (original && f.validTo === lastDay(original.valid_to) ? original.valid_to : f.validTo ? londonMidnight(addDays(f.validTo, 1)) : 0);
  return checked(problems, () => ({
    id,
    description,
    kind: f.kind,
    percent,
    amount,
    min_spend: minSpend,
    valid_from: validFrom(),
    valid_to: validTo(),
    usage_limit: limits.usage_limit,
    per_account_limit: limits.per_account_limit,
    account_uid: original?.account_uid ?? '',
    version: original?.version ?? 0,
  }));
}

/** A coupon as it is, to save with valid_to now (Expire), in whole seconds as the shop
 * keeps a coupon's times. One that has not started yet never will: its start moves to a
 * second before, as a coupon must start before it ends. */
export function expired(c: Coupon, nowMs: number): CouponInput {
  const { used: _used, ...rest } = c;
  const now = Math.floor(nowMs / 1000) * 1000;
  return { ...rest, valid_from: c.valid_from >= now ? now - 1000 : c.valid_from, valid_to: now };
}

/** Whether a coupon can no longer be used for its dates: its end has come. */
export const hasEnded = (c: Pick<Coupon, 'valid_to'>, nowMs: number) => c.valid_to !== 0 && c.valid_to <= nowMs;

// ——— Stock ———

export interface StockForm {
  /** set: the stock becomes quantity; add or remove: it moves by quantity. */
  mode: 'set' | 'add' | 'remove';
  quantity: string;
  reason: string;
}

/** What the stock form sends: set with expected = the stock the page shows, or adjust by a
 * signed quantity; the reason is 3 to 200 characters. */
export function checkStockForm(f: StockForm, shownStock: number): Checked<{ mode: 'set' | 'adjust'; quantity: number; expected: number; reason: string }> {
  const problems: Record<string, string> = {};
  const n = parseWhole(f.quantity);
  if (n === null) problems.quantity = f.mode === 'set' ? 'Enter the stock in units, a whole number.' : 'Enter how many units, a whole number.';
  else if (f.mode !== 'set' && n === 0) problems.quantity = 'Enter at least 1 unit.';
  else if (n > MAX_STOCK || (f.mode === 'add' && n + shownStock > MAX_STOCK))
    problems.quantity = `Stock can be at most ${MAX_STOCK.toLocaleString('en-GB')} units.`;
  else if (f.mode === 'remove' && n > shownStock) problems.quantity = `Only ${shownStock} units are in stock: you cannot take away more.`;
  const reason = f.reason.trim();
  const chars = [...reason].length;
  if (chars < 3 || chars > 200) problems.reason = 'Say why, in 3 to 200 characters (a delivery, a count, damaged stock).';
  else {
    const p = characterProblem('Reason', reason);
    if (p) problems.reason = p;
  }
  return checked(problems, () => ({
    mode: f.mode === 'set' ? 'set' : 'adjust',
    quantity: f.mode === 'remove' ? -(n ?? 0) : (n ?? 0),
    expected: shownStock,
    reason,
  }));
}

// ——— Export ———

/** The most days one export covers (docs/back-office.md). */
export const EXPORT_MAX_DAYS = 366;

/** The problems of an export's range of London days (both included). */
export function exportRangeProblems(from: string, to: string): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!isDay(from)) problems.from = 'Enter the first day.';
  if (!isDay(to)) problems.to = 'Enter the last day.';
  if (Object.keys(problems).length) return problems;
  const days = daysBetween(from, to) + 1;
  if (days < 1) problems.to = 'The last day must be on or after the first day.';
  else if (days > EXPORT_MAX_DAYS) problems.to = `One export covers at most ${EXPORT_MAX_DAYS} days: choose a shorter range.`;
  return problems;
}
