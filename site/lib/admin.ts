import { idToken } from './account-store';
import { ApiError, apiFetch, apiFetchBlob, CSRF_STALE, type ApiOptions } from './api';
import type {
  AdminAccountAnswer as AdminAccount,
  AdminAccountPage as AccountWithAudit,
  AdminAccountsPage,
  AdminCouponAnswer as Coupon,
  AdminCouponPage as CouponWithAudit,
  AdminCouponsPage,
  AdminLedgerAnswer,
  AdminPaymentAnswer,
  AdminRefundAnswer,
  AdminOrderPage,
  AdminOrderSummary as OrderSummary,
  AdminOrdersPage,
  AdminProductPage as ProductWithAudit,
  AdminPriceGroupPage,
  AdminPriceGroupsPage,
  AdminReceiptPage,
  AdminReceiptsPage,
  CreditHoldAnswer,
  FileProblem,
  PlanAnswer,
  PriceGroupAnswer,
  PriceGroupImportAnswer,
  StaffAnswer,
} from './api-types';
import { catalogueExportName, type ImportPlan, type ImportProblem, type ImportRequest, type PublishStatus, type UploadedPicture } from './catalogue-import';
import type { AdminOrder, LedgerEntry } from './card-payment-types';
import type { HealthAnswer } from './health';
import type { OrderAction } from './order-status';
import { priceGroupExportName } from './price-groups';
import { saveFile } from './save-file';

// The back office's calls (docs/back-office.md "API"): every one sends the CSRF header,
// reads included, and is repeated once for a stale token (apiFetch's csrf option); reads
// send the ID token as a bearer token, writes in the body. The answers' shapes are
// generated from the Go answer types (api-types.ts; docs/api.md "The wire contract"):
// money in pence under the amount's own name, times in Unix ms.
export type {
  AdminAccountAnswer as AdminAccount,
  AdminAccountPage as AccountWithAudit,
  AdminCouponAnswer as Coupon,
  AdminCouponPage as CouponWithAudit,
  AdminOrderSummary as OrderSummary,
  AdminProductAnswer as StockProduct,
  AdminProductPage as ProductWithAudit,
  AuditAnswer as AuditEntry,
  PaymentAnswer as Payment,
  RefundAnswer as Refund,
  CreditHoldAnswer as CreditHold,
} from './api-types';
// Card payments' shapes, by hand until they are generated (lib/card-payment-types.ts).
export type { AdminOrder, LedgerEntry } from './card-payment-types';

/** An order as staff see it, with its audit trail. */
export type OrderWithAudit = Omit<AdminOrderPage, 'order'> & { order: AdminOrder };

/** An account's ledger: its entries (a card payment's flag and a card refund's status
 * among them) and its figures. */
export type Ledger = Omit<AdminLedgerAnswer, 'entries'> & { entries: LedgerEntry[] };

/** A page of a list and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  next: string | null;
}

/** Whether a failed call was refused because the signed-in user is not staff: a 403 that
 * is not about the CSRF token or the request's origin (those say how to mend them). */
export function isStaffRefusal(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403 && err.code !== CSRF_STALE && err.code !== 'cross_site';
}

/** Whether a write was refused because the order, account, coupon or stock is not as the
 * page showed it (409): the page offers Reload, not Try again. */
export const isConflict = (err: unknown) => err instanceof ApiError && err.status === 409;

async function adminGet<T>(path: string, opts: Pick<ApiOptions, 'signal'> = {}): Promise<T> {
  return apiFetch<T>(path, { ...opts, method: 'GET', csrf: true, headers: { Authorization: `Bearer ${await idToken()}` } });
}

async function adminPost<T>(path: string, body: Record<string, unknown>): Promise<T> {
  return apiFetch<T>(path, { csrf: true, body: { token: await idToken(), ...body } });
}

const query = (params: Record<string, string | null | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

/** The member of staff signed in. The ID token is asked of the provider afresh first, so a
 * staff claim granted since the last token counts; a buyer without it gets a 403 ApiError. */
export async function adminMe(): Promise<StaffAnswer> {
  await idToken(true);
  return adminGet('/api/admin/me');
}

/** A page of orders, newest first: status '' for all, q an order number, business or PO. */
export async function adminOrders(f: { status: string; q: string; cursor: string | null }, signal?: AbortSignal): Promise<Page<OrderSummary>> {
  const page = await adminGet<AdminOrdersPage>(`/api/admin/orders${query({ status: f.status, q: f.q, cursor: f.cursor })}`, {
    ...(signal && { signal }),
  });
  return { items: page.orders, next: page.next || null };
}

export function adminOrder(id: string): Promise<OrderWithAudit> {
  return adminGet(`/api/admin/orders/${encodeURIComponent(id)}`);
}

/** What an action sends beyond its name: the version the page shows, and the dispatch's
 * carrier and tracking or the cancellation's reason. */
export interface ActionInput {
  version: number;
  carrier?: string;
  tracking?: string;
  reason?: string;
}

/** Moves an order on. A 409 (not allowed now, or changed since the page read it) is an
 * ApiError with the server's sentence. */
export function adminOrderAction(id: string, action: OrderAction, input: ActionInput): Promise<OrderWithAudit> {
  return adminPost(`/api/admin/orders/${encodeURIComponent(id)}/action`, { action, ...input });
}

/** A part credit (creditRequest): units of lines (restock says a returned line's units go
 * back to stock; before dispatch they always do), the delivery credited in pence ex VAT and
 * the reason, on the version the page read. */
export interface CreditInput {
  version: number;
  lines: { line: number; units: number; restock: boolean }[];
  delivery: number;
  reason: string;
}

/** Credits part of an order with a VAT credit note: lines taken off before dispatch, or a
 * return after it, and any delivery. A 409 (changed since the page read it, more units than
 * are left, every unit left) is an ApiError with the server's sentence. */
export function adminOrderCredit(id: string, input: CreditInput): Promise<OrderWithAudit> {
  return adminPost(`/api/admin/orders/${encodeURIComponent(id)}/credit`, { ...input });
}

/** A page of accounts by business name: q a business name or email. */
export async function adminAccounts(f: { q: string; cursor: string | null }, signal?: AbortSignal): Promise<Page<AdminAccount>> {
  const page = await adminGet<AdminAccountsPage>(`/api/admin/accounts${query({ q: f.q, cursor: f.cursor })}`, {
    ...(signal && { signal }),
  });
  return { items: page.accounts, next: page.next || null };
}

export function adminAccount(uid: string): Promise<AccountWithAudit> {
  return adminGet(`/api/admin/accounts/${encodeURIComponent(uid)}`);
}

/** What an account change sends (accountChangeRequest): the version the page read, the
 * credit limit in pence, null when not approved for credit, and the price group's id ("" for
 * none). */
export type AccountChange = Pick<AdminAccount, 'version' | 'approved_for_credit' | 'credit_limit' | 'dsc' | 'price_group'>;

export function adminAccountUpdate(uid: string, change: AccountChange): Promise<AccountWithAudit> {
  return adminPost(`/api/admin/accounts/${encodeURIComponent(uid)}`, { ...change });
}

// ——— Payments (docs/back-office.md "Payments") ———

/** An invoice named by hand and the pence to set against it. */
export interface AllocationLine {
  invoice: string;
  amount: number;
}

/** A payment received, as the record form sends it: allocated oldest first, by hand
 * (lines) or not yet. */
export interface PaymentInput {
  method: 'bank_transfer' | 'cheque';
  date: string;
  amount: number;
  reference: string;
  allocate: 'oldest' | 'by_hand' | 'none';
  lines?: AllocationLine[];
}

/** Money paid back from a payment or credit on account (source), or a payment reversed. */
export interface RefundInput {
  source: string;
  method: 'bank_transfer' | 'cheque' | 'reversal';
  date: string;
  amount: number;
  reference: string;
}

/** An account's ledger: its invoices, credit notes, payments and refunds with a running
 * balance, and what is due, overdue and unallocated. */
export function adminLedger(uid: string): Promise<Ledger> {
  return adminGet<Ledger>(`/api/admin/accounts/${encodeURIComponent(uid)}/ledger`);
}

/** Records a payment against an account and allocates it, in one transaction. */
export function adminRecordPayment(uid: string, input: PaymentInput): Promise<AdminPaymentAnswer> {
  return adminPost<AdminPaymentAnswer>(`/api/admin/accounts/${encodeURIComponent(uid)}/payments`, { ...input });
}

/** Allocates what a payment (PAY-…) or credit on account (CN-…) has left: by hand, or
 * oldest first without lines. */
export function adminAllocate(uid: string, id: string, lines?: AllocationLine[]): Promise<AdminPaymentAnswer> {
  return adminPost<AdminPaymentAnswer>(`/api/admin/accounts/${encodeURIComponent(uid)}/payments/${encodeURIComponent(id)}/allocate`, lines ? { lines } : {});
}

/** Records a refund (or a reversal) from what a payment or credit on account holds. */
export function adminRefund(uid: string, input: RefundInput): Promise<AdminRefundAnswer> {
  return adminPost<AdminRefundAnswer>(`/api/admin/accounts/${encodeURIComponent(uid)}/refunds`, { ...input });
}

export async function adminCoupons(): Promise<Coupon[]> {
  return (await adminGet<AdminCouponsPage>('/api/admin/coupons')).coupons;
}

/** What a coupon save sends: the coupon without its use count, which only orders move. */
export type CouponInput = Omit<Coupon, 'used'>;

/** Creates a coupon (create) or saves one that exists; an id taken, or a coupon changed
 * meanwhile, is a 409. */
export function adminCouponSave(coupon: CouponInput, create: boolean): Promise<CouponWithAudit> {
  return adminPost(create ? '/api/admin/coupons' : `/api/admin/coupons/${encodeURIComponent(coupon.id)}`, { coupon });
}

export function adminProduct(sku: string): Promise<ProductWithAudit> {
  return adminGet(`/api/admin/products/${encodeURIComponent(sku)}`);
}

/** Sets a product's stock (mode set: to quantity) or moves it by quantity (adjust; negative
 * takes away). expected is the stock the page showed: a set refuses it if it moved. */
export function adminStock(sku: string, change: { mode: 'set' | 'adjust'; quantity: number; expected: number; reason: string }): Promise<ProductWithAudit> {
  return adminPost(`/api/admin/products/${encodeURIComponent(sku)}/stock`, { ...change });
}

/** The shop's health for the Health page: app error groups, the email outbox, the order
 * backlogs and the last catalogue import (GET /api/admin/health). */
export function adminHealth(signal?: AbortSignal): Promise<HealthAnswer> {
  return adminGet<HealthAnswer>('/api/admin/health', { ...(signal && { signal }) });
}

/** The documents the export writes for the accounts package (docs/exports.md), as the
 * API names them, with what the page calls them. */
export const EXPORT_DOCUMENTS = [
  { id: 'orders', label: 'Order lines' },
  { id: 'invoices', label: 'Invoices' },
  { id: 'credit_notes', label: 'Credit notes' },
  { id: 'payments', label: 'Payments' },
  { id: 'refunds', label: 'Refunds' },
] as const;

export type ExportDocument = (typeof EXPORT_DOCUMENTS)[number]['id'];

/** The export's file name for a document and a range of London days, as the API names it. */
export const exportFileName = (from: string, to: string, document: ExportDocument = 'orders') => `${document.replace('_', '-')}-${from}-to-${to}.csv`;

/** Downloads a document of a range of London days (both included) as a CSV file: the
 * order lines by default. The API wants the ID token in a header, which a plain link cannot
 * send, so the file is fetched and handed to the browser, as the invoice PDF is. */
export async function downloadExport(from: string, to: string, doc: Document = document, kind: ExportDocument = 'orders'): Promise<void> {
  const csv = await apiFetchBlob(`/api/admin/export${query(kind === 'orders' ? { from, to } : { from, to, document: kind })}`, 'text/csv', {
    method: 'GET',
    csrf: true,
    headers: { Authorization: `Bearer ${await idToken()}` },
  });
  if (csv.type.split(';')[0]!.trim().toLowerCase() !== 'text/csv') throw new Error(`the export came back as ${csv.type || 'no type'}, not CSV`);
  saveFile(csv, exportFileName(from, to, kind), doc);
}

// ——— Credit hold (docs/back-office.md "Credit hold") ———

/** Whether the account is on credit hold now, by which invoice, and staff's last lift. */
export function adminCreditHold(uid: string): Promise<CreditHoldAnswer> {
  return adminGet(`/api/admin/accounts/${encodeURIComponent(uid)}/credit-hold`);
}

/** Lifts the account's credit hold until a London day (YYYY-MM-DD; '' for the default,
 * 14 days from today) with a reason, audited in the account's trail. */
export function adminLiftCreditHold(uid: string, lift: { until: string; reason: string }): Promise<CreditHoldAnswer> {
  return adminPost(`/api/admin/accounts/${encodeURIComponent(uid)}/credit-hold/lift`, { ...lift });
}

// ——— Catalogue import (docs/back-office.md "Catalogue") ———

/** A check's or apply's outcome: the plan, or the files' problems (422: the first of them
 * and how many there were). Anything else is an ApiError. */
export type ImportOutcome = { plan: ImportPlan } | { problems: ImportProblem[]; count: number };

async function importCall(path: string, body: Record<string, unknown>): Promise<ImportOutcome> {
  try {
    return { plan: (await adminPost<PlanAnswer>(path, body)).plan };
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) {
      // The 422's file_problems (docs/api.md "Errors"): a line of 0 (left out) is the whole file.
      const a = (err.answer ?? {}) as { file_problems?: FileProblem[]; file_problem_count?: number };
      const problems = (Array.isArray(a.file_problems) ? a.file_problems : []).map((p): ImportProblem => ({
        ...(p.file && { file: p.file }),
        line: p.line ?? 0,
        ...(p.column && { column: p.column }),
        message: p.problem,
      }));
      return { problems, count: typeof a.file_problem_count === 'number' ? a.file_problem_count : problems.length };
    }
    throw err;
  }
}

/** Checks the files against the catalogue: nothing is written. */
export function checkImport(req: ImportRequest): Promise<ImportOutcome> {
  return importCall('/api/admin/catalogue/check', { ...req });
}

/** Applies the files the page checked (job: the check's). A 409 is an ApiError saying the
 * file changed since the check, or that another import is running. */
export function applyImport(req: ImportRequest, job: string): Promise<ImportOutcome> {
  return importCall('/api/admin/catalogue/apply', { ...req, job });
}

/** Uploads one picture: checked, made into the pages' two sizes and published. A picture
 * that cannot be used is a 400 (or 413) ApiError with the sentence saying why. */
export async function uploadPicture(file: File): Promise<UploadedPicture> {
  return apiFetch<UploadedPicture>(`/api/admin/catalogue/images${query({ name: file.name })}`, {
    method: 'POST',
    csrf: true,
    rawBody: file,
    headers: { Authorization: `Bearer ${await idToken()}` },
  });
}

/** Downloads the catalogue as the import's CSV: the products, or the ranges and categories. */
export async function downloadCatalogue(file: 'products' | 'categories', doc: Document = document): Promise<string> {
  const csv = await apiFetchBlob(`/api/admin/catalogue/export${query({ file })}`, 'text/csv', {
    method: 'GET',
    csrf: true,
    headers: { Authorization: `Bearer ${await idToken()}` },
  });
  if (csv.type.split(';')[0]!.trim().toLowerCase() !== 'text/csv') throw new Error(`the export came back as ${csv.type || 'no type'}, not CSV`);
  const name = catalogueExportName(file);
  saveFile(csv, name, doc);
  return name;
}

/** Starts publishing the catalogue (202 with its status; a 409 while one runs carries the
 * running one's status; a 501 where this stack cannot publish says who can). */
export async function startPublish(): Promise<PublishStatus> {
  try {
    return await adminPost<PublishStatus>('/api/admin/catalogue/publish', {});
  } catch (err) {
    const a = err instanceof ApiError && err.status === 409 ? (err.answer as PublishStatus | undefined) : undefined;
    if (a?.state === 'running') return a;
    throw err;
  }
}

/** The state of the last publish. */
export function publishStatus(signal?: AbortSignal): Promise<PublishStatus> {
  return adminGet<PublishStatus>('/api/admin/catalogue/publish', { ...(signal && { signal }) });
}

// ——— Price groups (docs/pricing.md, docs/back-office.md) ———

/** Every price group, with its rows and when it last changed. */
export async function adminPriceGroups(signal?: AbortSignal): Promise<PriceGroupAnswer[]> {
  return (await adminGet<AdminPriceGroupsPage>('/api/admin/price-groups', { ...(signal && { signal }) })).groups;
}

/** Creates a price group with no rows (an id taken is the server's 400 or 409). */
export async function adminPriceGroupCreate(id: string, name: string): Promise<PriceGroupAnswer> {
  return (await adminPost<AdminPriceGroupPage>('/api/admin/price-groups', { id, name })).group;
}

/** Checks a group's CSV (apply false: nothing is written) or applies it (apply true, on the
 * version the check read: a 409 says another change came first). Problems come back in the
 * answer, by line and column, with nothing written. */
export function adminPriceGroupImport(id: string, csv: { name: string; text: string }, apply: boolean, version: number): Promise<PriceGroupImportAnswer> {
  return adminPost(`/api/admin/price-groups/${encodeURIComponent(id)}/import`, { csv, apply, version });
}

/** Downloads a group as its CSV, the import's own columns. */
export async function downloadPriceGroup(id: string, doc: Document = document): Promise<string> {
  const csv = await apiFetchBlob(`/api/admin/price-groups/${encodeURIComponent(id)}/export`, 'text/csv', {
    method: 'GET',
    csrf: true,
    headers: { Authorization: `Bearer ${await idToken()}` },
  });
  if (csv.type.split(';')[0]!.trim().toLowerCase() !== 'text/csv') throw new Error(`the export came back as ${csv.type || 'no type'}, not CSV`);
  const name = priceGroupExportName(id);
  saveFile(csv, name, doc);
  return name;
}

// Receiving forward deliveries (issue 38, docs/forward-orders.md "Receiving and allocation"):
// the answers count packs; the requests send units (packs × pack size).

/** Every delivery recorded, newest first, with the shop's allocation rule. */
export function adminReceipts(signal?: AbortSignal): Promise<AdminReceiptsPage> {
  return adminGet<AdminReceiptsPage>('/api/admin/receipts', { ...(signal && { signal }) });
}

/** One delivery: recorded, with the proposal by the shop's rule; applied, what it released. */
export function adminReceipt(id: string, signal?: AbortSignal): Promise<AdminReceiptPage> {
  return adminGet<AdminReceiptPage>(`/api/admin/receipts/${encodeURIComponent(id)}`, { ...(signal && { signal }) });
}

/** Records a delivery: units of each SKU (a 400 names each line that is wrong). */
export function adminReceiptRecord(lines: { sku: string; units: number }[]): Promise<AdminReceiptPage> {
  return adminPost<AdminReceiptPage>('/api/admin/receipts', { lines });
}

/** Applies a delivery with staff's units per forward line (lines not named keep the
 * proposal's); a delivery applied already answers as it is. */
export function adminReceiptApply(id: string, allocations: { sku: string; line_sk: string; units: number }[]): Promise<AdminReceiptPage> {
  return adminPost<AdminReceiptPage>(`/api/admin/receipts/${encodeURIComponent(id)}/apply`, { allocations });
}
