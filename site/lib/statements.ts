import { idToken } from './account-store';
import { ApiError, apiFetch, apiFetchBlob } from './api';
import type { AdminBalancesAnswer, AgeingAnswer, BalanceAnswer, StatementAnswer } from './api-types';
import { saveFile } from './save-file';

// Statements (docs/statements.md): the buyer's own statement and its PDF, and the back
// office's balances list and aged debt report. The answers' shapes are generated from the
// Go answer types: money in pence, dates London days (YYYY-MM-DD).
export type {
  AdminBalancesAnswer as Balances,
  AgeingAnswer as AgeingBucket,
  BalanceAnswer as AccountBalance,
  OpenItemAnswer as OpenItem,
  StatementAnswer as Statement,
} from './api-types';

const bearer = async () => ({ Authorization: `Bearer ${await idToken()}` });

/** The signed-in buyer's statement today (GET /api/account/statement); null for a buyer
 * whose account is not made yet (404: a first sign-in makes it), who has nothing to show. */
export async function statement(): Promise<StatementAnswer | null> {
  try {
    return await apiFetch<StatementAnswer>('/api/account/statement', { method: 'GET', headers: await bearer() });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Whether the dashboard shows a statement: the buyer pays on account, or has a balance
 * or money owed or held either way. */
export const showsStatement = (s: Pick<StatementAnswer, 'on_account' | 'balance' | 'due' | 'unallocated'>) =>
  s.on_account || s.balance !== 0 || s.due !== 0 || s.unallocated !== 0;

/** The statement PDF's file name on London day date. */
export const statementFileName = (date: string) => `statement-${date}.pdf`;

/** Downloads the buyer's statement as a PDF (GET /api/account/statement.pdf). The API wants
 * the ID token in a header, which a plain link cannot send, so the PDF is fetched and
 * handed to the browser as a file, as the invoice's is. */
export async function downloadStatement(date: string, doc: Document = document): Promise<void> {
  const pdf = await apiFetchBlob('/api/account/statement.pdf', 'application/pdf', { method: 'GET', headers: await bearer() });
  if (pdf.type.split(';')[0]!.trim().toLowerCase() !== 'application/pdf') throw new Error(`the statement came back as ${pdf.type || 'no type'}, not a PDF`);
  saveFile(pdf, statementFileName(date), doc);
}

/** The aged debt buckets' labels, by bucket. */
export const AGEING_LABELS: Record<AgeingAnswer['bucket'], string> = {
  current: 'Current',
  days_1_30: '1–30 days',
  days_31_60: '31–60 days',
  days_61_90: '61–90 days',
  days_over_90: 'Over 90 days',
};

const staffHeaders = async () => ({ Authorization: `Bearer ${await idToken()}` });

/** Every account with a balance, and the totals (GET /api/admin/balances). */
export async function adminBalances(signal?: AbortSignal): Promise<AdminBalancesAnswer> {
  return apiFetch<AdminBalancesAnswer>('/api/admin/balances', { method: 'GET', csrf: true, headers: await staffHeaders(), ...(signal && { signal }) });
}

/** Downloads the aged debt report as aged-debt-{date}.csv (GET /api/admin/balances/aged.csv). */
export async function downloadAgedDebt(date: string, doc: Document = document): Promise<void> {
  const csv = await apiFetchBlob('/api/admin/balances/aged.csv', 'text/csv', { method: 'GET', csrf: true, headers: await staffHeaders() });
  if (csv.type.split(';')[0]!.trim().toLowerCase() !== 'text/csv') throw new Error(`the aged debt report came back as ${csv.type || 'no type'}, not CSV`);
  saveFile(csv, `aged-debt-${date}.csv`, doc);
}

/** The columns the balances list sorts by. */
export type BalanceColumn = 'business' | 'balance' | 'due' | 'overdue' | 'oldest_overdue_days';

/** The balances sorted by column, ascending or not; ties by business name, so the order
 * is the same on every sort. */
export function sortBalances(list: readonly BalanceAnswer[], column: BalanceColumn, ascending: boolean): BalanceAnswer[] {
  const byName = (a: BalanceAnswer, b: BalanceAnswer) => a.business.localeCompare(b.business, 'en-GB') || a.uid.localeCompare(b.uid);
  return [...list].sort((a, b) => {
    const c = column === 'business' ? byName(a, b) : a[column] - b[column] || byName(a, b);
    return ascending ? c : -c;
  });
}
