import type {
  ImportChangeAnswer as ImportChange,
  ImportFieldChangeAnswer as FieldChange,
  ImportPlanAnswer as ImportPlan,
  PublishAnswer as PublishStatus,
} from './api-types';
import { londonDay } from './london-dates';

// The back office's catalogue import (docs/back-office.md "Catalogue"), as plain
// functions: the shapes of the API's answers, the limits it holds to, and the words the
// page uses. The calls are in lib/admin.ts.

// The answers' shapes are generated from the Go answer types (api-types.ts): a change's
// line is 0 (absent) for a product discontinued because the whole-catalogue file leaves
// it out; a plan names its first changes (at most 50).
export type {
  CatalogueImageAnswer as UploadedPicture,
  ImportChangeAnswer as ImportChange,
  ImportFieldChangeAnswer as FieldChange,
  ImportPlanAnswer as ImportPlan,
  PublishAnswer as PublishStatus,
} from './api-types';

/** One problem of a file (catimport.Problem): line 1 is the header, 0 the whole file. */
export interface ImportProblem {
  file?: string;
  line: number;
  column?: string;
  message: string;
}

/** A file as the check and apply send it. */
export interface ImportFile {
  name: string;
  text: string;
}

/** The body of a check (and, with the job, of an apply), less the token. */
export interface ImportRequest {
  products: ImportFile;
  categories?: ImportFile;
  full: boolean;
  images: Record<string, { small: string; large: string }>;
}

/** The most a check or apply body may be (the API's maxImportBodyBytes): the cloud takes
 * requests of at most 6 MB. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** The most an uploaded picture may be (the API's maxPictureBytes): a picture travels to
 * the function base64-encoded, a third larger. */
export const MAX_PICTURE_BYTES = 4 * 1024 * 1024;

/** The picture types the upload takes (package media: JPEG, PNG, WebP). */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** The endings of a products or ranges and categories file the API takes. */
export const IMPORT_FILE_ENDINGS = ['.csv', '.jsonl', '.ndjson', '.json'] as const;

/** Megabytes with one decimal, as the API counts them (1 MB = 1,048,576 bytes). */
export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Why a chosen picture cannot be uploaded, as a sentence; null when it can. */
export function pictureProblem(file: { name: string; size: number; type: string }): string | null {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) return `${file.name} is not a JPEG, PNG or WebP picture.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_PICTURE_BYTES) {
    return `${file.name} is ${megabytes(file.size)}; the most a picture uploaded here may be is ${MAX_PICTURE_BYTES / (1024 * 1024)} MB. Save it smaller (2000 pixels across is plenty).`;
  }
  return null;
}

/** Why a chosen products or ranges and categories file cannot be sent, as a sentence; null when it can. */
export function importFileProblem(file: { name: string; size: number }): string | null {
  const lower = file.name.toLowerCase();
  if (!IMPORT_FILE_ENDINGS.some((e) => lower.endsWith(e))) return `${file.name} is not a .csv or .jsonl file.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

/** A file's bytes as text: UTF-8 (a leading byte-order mark dropped), or the sentence the
 * import would say of it. A file that is not UTF-8 is refused here, before the browser
 * would turn its bad bytes into replacement characters the server could not see. */
export function decodeImportFile(name: string, bytes: Uint8Array): { text: string } | { problem: string } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text };
  } catch {
    return { problem: `${name} is not UTF-8 text; save the file as "CSV UTF-8" and choose it again.` };
  }
}

/** The size of a request body as sent (JSON, UTF-8). */
export const bodyBytes = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).length;

/** Why a check or apply body is too large for the back office, as a sentence; null when it fits. */
export function importSizeProblem(body: unknown): string | null {
  const n = bodyBytes(body);
  if (n <= MAX_IMPORT_BYTES) return null;
  return `The files come to ${megabytes(n)}; the back office takes at most ${MAX_IMPORT_BYTES / (1024 * 1024)} MB at once. Import a bigger catalogue with scripts/catalogue import (docs/catalogue-import.md).`;
}

/** The progress line of the picture uploads. */
export const uploadProgress = (done: number, total: number) => `Uploading pictures ${Math.min(done + 1, total)} of ${total}…`;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** The products counts of a plan: "1 new, 1 changed, 0 discontinued, 3 unchanged". */
export function productCounts(p: Pick<ImportPlan, 'new' | 'changed' | 'discontinued' | 'unchanged'>): string {
  return `${p.new.toLocaleString('en-GB')} new, ${p.changed.toLocaleString('en-GB')} changed, ${p.discontinued.toLocaleString('en-GB')} discontinued, ${p.unchanged.toLocaleString('en-GB')} unchanged`;
}

/** The ranges and categories counts of a plan, or '' when it changes none. */
export function structureCounts(p: Pick<ImportPlan, 'new_ranges' | 'changed_ranges' | 'new_categories' | 'changed_categories'>): string {
  if (p.new_ranges + p.changed_ranges + p.new_categories + p.changed_categories === 0) return '';
  return `ranges: ${p.new_ranges} new, ${p.changed_ranges} changed; categories: ${p.new_categories} new, ${p.changed_categories} changed`;
}

/** Whether applying the plan would change nothing. */
export const changesNothing = (p: ImportPlan) =>
  p.new + p.changed + p.discontinued + p.new_ranges + p.changed_ranges + p.new_categories + p.changed_categories === 0;

/** The result of an apply as one sentence: "Applied: 1 new, 1 changed, 0 discontinued, 2 unchanged." */
export function appliedSentence(p: ImportPlan): string {
  if (changesNothing(p)) return `Nothing to change: the file matches the catalogue (${plural(p.unchanged, 'product')} unchanged).`;
  const structure = structureCounts(p);
  return `Applied: ${productCounts(p)}${structure ? `; ${structure}` : ''}.`;
}

/** Where a problem is: "line 3, pack size", "the header (line 1)", or "the whole file". */
export function problemWhere(p: ImportProblem): string {
  const where = p.line > 1 ? `line ${p.line}` : p.line === 1 ? 'header (line 1)' : 'whole file';
  return p.column ? `${where}, ${p.column}` : where;
}

/** The line under a list cut short: "…and 12 more", or '' when every problem is listed. */
export const moreProblems = (count: number, shown: number) => (count > shown ? `…and ${(count - shown).toLocaleString('en-GB')} more` : '');

/** A change's kind as the review table says it. */
export const kindWord = (kind: ImportChange['kind']) => ({ new: 'New', changed: 'Changed', discontinued: 'Discontinued' })[kind] ?? kind;

/** One field change as the review shows it: "unit price: 1.00 → 1.25" (an empty value is "(none)"). */
export function fieldChangeText(f: FieldChange): string {
  const shown = (v: string) => (v === '' ? '(none)' : v.length > 80 ? `${v.slice(0, 80)}…` : v);
  return `${f.field}: ${shown(f.before)} → ${shown(f.after)}`;
}

/** The file name of a catalogue export saved today (the API names it the same). */
export const catalogueExportName = (file: 'products' | 'categories', now = Date.now()) => `catalogue-${file}-${londonDay(now)}.csv`;

/** What the publish section says of a publish's state. */
export function publishSentence(s: PublishStatus): string {
  switch (s.state) {
    case 'running': {
      // Where it is (in the cloud, the build's step: "installing the site's packages (step 6 of 11: PRE_BUILD)").
      const step = s.message.trim().replace(/[.\s]+$/, '');
      const progress = step ? `${step[0]!.toUpperCase()}${step.slice(1)}. ` : '';
      return `Publishing the catalogue… ${progress}This builds the whole site and takes a few minutes; you can leave this page.`;
    }
    case 'done':
      return s.build_id ? `Published: build ${s.build_id} is live.` : 'Published: the new build is live.';
    case 'failed':
      return `The publish failed${s.message ? `: ${s.message.replace(/[.\s]+$/, '')}` : ''}. The catalogue pages are as they were; try again, or ask a release engineer.`;
    default:
      return 'The catalogue pages (products, categories) change when the catalogue is published. An import reaches the basket, checkout and search at once.';
  }
}

/** How often the page asks how a running publish is going. */
export const PUBLISH_POLL_MS = 2000;
