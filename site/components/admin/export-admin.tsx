'use client';
import { useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { downloadExport, EXPORT_DOCUMENTS, exportFileName, type ExportDocument } from '@/lib/admin';
import { EXPORT_MAX_DAYS, exportRangeProblems } from '@/lib/admin-forms';
import { londonDay } from '@/lib/london-dates';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** /admin/export/: the order lines, invoices, credit notes, payments or refunds of a range
 * of London days as a CSV file for the accounts package (GET /api/admin/export; the
 * layouts in docs/exports.md), saved as the invoice PDF is. */
export function ExportAdmin() {
  // This month so far, as a first guess.
  const [range, setRange] = useState(() => {
    const today = londonDay(Date.now());
    return { from: `${today.slice(0, 8)}01`, to: today };
  });
  const [kind, setKind] = useState<ExportDocument>('orders');
  const { busy, problems, setProblems, outcome, submit } = useAdminSubmit();
  function download(e: FormEvent) {
    e.preventDefault();
    const p = exportRangeProblems(range.from, range.to);
    setProblems(p);
    if (Object.keys(p).length) return;
    const { from, to } = range;
    void submit(async () => {
      await downloadExport(from, to, document, kind);
      return `${exportFileName(from, to, kind)} is downloaded.`;
    }, 'The export could not be prepared.');
  }
  return (
    <>
      <h1>Export for the accounts package</h1>
      <p>
        Order lines (one row per line, cancelled orders included), or the invoices, credit notes, payments or refunds dated in the range, in the layout Sage 50
        imports. The days are UK days, both included, at most {EXPORT_MAX_DAYS} of them.
      </p>
      <form className="form admin-form" onSubmit={download} noValidate aria-label="Export">
        <FormOutcome outcome={outcome} />
        <div className="field">
          <label htmlFor="export-document">Document</label>
          <select id="export-document" value={kind} onChange={(e) => setKind(e.target.value as ExportDocument)}>
            {EXPORT_DOCUMENTS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        <Field
          id="export-from"
          label="From"
          type="date"
          value={range.from}
          onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
          required
          error={problems.from}
        />
        <Field
          id="export-to"
          label="To"
          type="date"
          value={range.to}
          onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
          required
          error={problems.to}
        />
        <button type="submit" className="button" aria-disabled={busy} aria-busy={busy}>
          {busy ? 'Preparing CSV…' : 'Download CSV'}
        </button>
      </form>
    </>
  );
}
