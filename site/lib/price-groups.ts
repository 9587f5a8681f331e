import type { PriceGroupAnswer as PriceGroup, PriceGroupImportAnswer as PriceGroupImport } from './api-types';

// The back office's price groups (docs/pricing.md, docs/back-office.md), as plain
// functions: the rules a new group's id and name keep, the words of a check's outcome, and
// the export's file name. The calls are in lib/admin.ts; the server checks everything again.

export type { PriceGroupAnswer as PriceGroup, PriceGroupImportAnswer as PriceGroupImport, PriceGroupProblemAnswer as PriceGroupProblem } from './api-types';

/** What is wrong with a new group's id and name, by the API's field names ({} when nothing). */
export function priceGroupFormProblems(f: { id: string; name: string }): Record<string, string> {
  const problems: Record<string, string> = {};
  const id = f.id.trim();
  if (!id) problems.id = 'Enter an id, such as independents.';
  else if (!/^[a-z0-9-]{1,40}$/.test(id)) problems.id = 'An id is 1 to 40 lowercase letters, digits and hyphens, such as garden-centres.';
  const name = f.name.trim();
  if (!name) problems.name = 'Enter a name, such as Independents.';
  else if (name.length > 60 || /[\r\n]/.test(name)) problems.name = 'A name is one line of at most 60 characters.';
  return problems;
}

/** Why a chosen file cannot be a price group's CSV, as a sentence; null when it can. */
export function priceGroupFileProblem(file: { name: string; size: number }): string | null {
  if (!file.name.toLowerCase().endsWith('.csv')) return `${file.name} is not a .csv file.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** A group's rows in words: "12 rows", "no rows yet". */
export const rowsText = (rows: number) => (rows === 0 ? 'no rows yet' : plural(rows, 'row'));

/** What a check or apply found the file would change: "2 added, 1 changed, 0 removed". */
export const changeCounts = (a: Pick<PriceGroupImport, 'added' | 'changed' | 'removed'>) => `${a.added} added, ${a.changed} changed, ${a.removed} removed`;

/** Whether a checked file would change nothing. */
export const changesNothing = (a: Pick<PriceGroupImport, 'added' | 'changed' | 'removed'>) => a.added + a.changed + a.removed === 0;

/** The sentence after an apply. */
export function appliedText(a: PriceGroupImport): string {
  return `${a.group.name} now holds ${rowsText(a.rows)} (${changeCounts(a)}). Every account in the group is priced by it from now on.`;
}

/** The line of the problems table the whole file's problems sit on. */
export const problemLine = (line: number) => (line > 0 ? String(line) : 'whole file');

/** The sentence under a list of problems cut at the limit, or '' when every one is listed. */
export const moreProblemsText = (listed: number, total: number) =>
  total > listed
    ? `Only the first ${listed.toLocaleString('en-GB')} of ${total.toLocaleString('en-GB')} problems are listed: put these right and check the file again for the rest.`
    : '';

/** The export's file name: price-group-independents.csv. */
export const priceGroupExportName = (id: string) => `price-group-${id}.csv`;

/** Groups in the order the page lists them: by name, then id. */
export const byName = (groups: readonly PriceGroup[]) => [...groups].sort((a, b) => a.name.localeCompare(b.name, 'en-GB') || a.id.localeCompare(b.id));
