import type { AllocationLine, LedgerEntry, PaymentInput, RefundInput } from './admin';
import type { Checked } from './admin-forms';
import { parsePounds } from './format';
import { isDay, londonDay } from './london-dates';
import { characterProblem } from './validation';

// The back office's payment forms (docs/back-office.md "Payments") as plain functions:
// what each holds as typed, what it sends and its problems keyed by the API's field
// names. Whether a payment has enough left, or an invoice owes enough, is the server's to
// say (a 409 with its sentence): the browser does no money arithmetic.

/** The most one payment or refund is, in pence: £10,000,000 (payments.MaxAmount). */
export const MAX_PAYMENT = 1_000_000_000;

/** The most invoices one allocation names (payments.MaxLines). */
export const MAX_LINES = 40;

/** Today as a London day (YYYY-MM-DD): a payment's date starts there. */
export const todayInLondon = (nowMs: number = Date.now()) => londonDay(nowMs);

/** An open invoice as the by-hand rows show it: what it still owes. */
export interface OpenInvoice {
  invoice: string;
  orderId: string;
  outstanding: number;
  dueOn: string | null;
  pastDue: boolean;
}

/** The invoices a ledger says still owe something, oldest first (the order allocation
 * takes them in). */
export function openInvoices(entries: LedgerEntry[]): OpenInvoice[] {
  return entries
    .filter((e) => e.kind === 'invoice' && e.outstanding > 0)
    .map((e) => ({ invoice: e.reference, orderId: e.order_id, outstanding: e.outstanding, dueOn: e.due_on, pastDue: e.past_due }))
    .sort((a, b) => a.invoice.localeCompare(b.invoice));
}

/** The amounts typed beside each open invoice, by invoice number: blank rows are left out. */
export type HandAmounts = Record<string, string>;

function checkLines(amounts: HandAmounts, problems: Record<string, string>): AllocationLine[] {
  const lines: AllocationLine[] = [];
  for (const [invoice, text] of Object.entries(amounts)) {
    if (!text.trim()) continue;
    const n = parsePounds(text);
    if (n === null || n === 0 || n > MAX_PAYMENT) problems[`line-${invoice}`] = `Enter the amount for ${invoice} in pounds, such as 120 or 49.50.`;
    else lines.push({ invoice, amount: n });
  }
  if (!lines.length && !Object.keys(problems).some((k) => k.startsWith('line-'))) problems.lines = 'Enter an amount beside at least one invoice.';
  else if (lines.length > MAX_LINES) problems.lines = `Name at most ${MAX_LINES} invoices at once: allocate the rest next.`;
  return lines;
}

function checkDate(date: string, nowMs: number, problems: Record<string, string>) {
  if (!isDay(date)) problems.date = 'Enter the date as a day, such as 2026-11-27.';
  else if (date > todayInLondon(nowMs)) problems.date = 'The date must not be after today.';
}

function checkAmount(text: string, what: string, problems: Record<string, string>): number {
  const n = parsePounds(text);
  if (n === null || n === 0 || n > MAX_PAYMENT) problems.amount = `Enter the ${what} in pounds, from 0.01 to 10,000,000, such as 250 or 49.50.`;
  return n ?? 0;
}

function checkReference(text: string, problems: Record<string, string>): string {
  const reference = text.trim();
  const chars = [...reference].length;
  if (chars < 1 || chars > 60) problems.reference = 'Enter the reference, up to 60 characters (the bank’s, or the cheque number).';
  else {
    const p = characterProblem('Reference', reference);
    if (p) problems.reference = p;
  }
  return reference;
}

export interface PaymentForm {
  method: 'bank_transfer' | 'cheque';
  date: string;
  /** Pounds, as typed. */
  amount: string;
  reference: string;
  allocate: 'oldest' | 'by_hand' | 'none';
  hand: HandAmounts;
}

/** A new payment form: a bank transfer received today, allocated oldest first. */
export const newPaymentForm = (nowMs: number = Date.now()): PaymentForm => ({
  method: 'bank_transfer',
  date: todayInLondon(nowMs),
  amount: '',
  reference: '',
  allocate: 'oldest',
  hand: {},
});

/** What the record form sends. */
export function checkPaymentForm(f: PaymentForm, nowMs: number = Date.now()): Checked<PaymentInput> {
  const problems: Record<string, string> = {};
  checkDate(f.date, nowMs, problems);
  const amount = checkAmount(f.amount, 'amount received', problems);
  const reference = checkReference(f.reference, problems);
  const lines = f.allocate === 'by_hand' ? checkLines(f.hand, problems) : undefined;
  if (Object.keys(problems).length) return { ok: false, problems };
  return { ok: true, value: { method: f.method, date: f.date, amount, reference, allocate: f.allocate, ...(lines ? { lines } : {}) } };
}

/** What an Allocate form sends: by hand the lines, oldest first none. */
export function checkAllocateForm(f: { allocate: 'oldest' | 'by_hand'; hand: HandAmounts }): Checked<AllocationLine[] | undefined> {
  if (f.allocate === 'oldest') return { ok: true, value: undefined };
  const problems: Record<string, string> = {};
  const lines = checkLines(f.hand, problems);
  return Object.keys(problems).length ? { ok: false, problems } : { ok: true, value: lines };
}

export interface RefundForm {
  method: 'bank_transfer' | 'cheque' | 'reversal';
  date: string;
  amount: string;
  reference: string;
}

/** A new refund form: by bank transfer today; a reversal's amount is the whole payment. */
export const newRefundForm = (nowMs: number = Date.now()): RefundForm => ({ method: 'bank_transfer', date: todayInLondon(nowMs), amount: '', reference: '' });

/** What the refund form sends, from source (a payment's id or a credit note's number). */
export function checkRefundForm(f: RefundForm, source: string, nowMs: number = Date.now()): Checked<RefundInput> {
  const problems: Record<string, string> = {};
  checkDate(f.date, nowMs, problems);
  const amount = checkAmount(f.amount, 'amount to refund', problems);
  const reference = checkReference(f.reference, problems);
  if (Object.keys(problems).length) return { ok: false, problems };
  return { ok: true, value: { source, method: f.method, date: f.date, amount, reference } };
}
