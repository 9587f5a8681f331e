'use client';
import { useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { downloadExport, exportFileName } from '@/lib/admin';
import { EXPORT_MAX_DAYS, exportRangeProblems } from '@/lib/admin-forms';
import { londonDay } from '@/lib/london-dates';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** /admin/export/: the order lines of a range of London days as a CSV file for the accounts
 * package (GET /api/admin/export), saved as the invoice PDF is. */
export function ExportAdmin() {
  // This month so far, as a first guess.
  const [range, setRange] = useState(() => {
    const today = londonDay(Date.now());
    return { from: `${today.slice(0, 8)}01`, to: today };
  });
  const { busy, problems, setProblems, outcome, submit } = useAdminSubmit();
  function download(e: FormEvent) {
    e.preventDefault();
    const p = exportRangeProblems(range.from, range.to);
    setProblems(p);
    if (Object.keys(p).length) return;
    const { from, to } = range;
    void submit(async () => {
      await downloadExport(from, to);
      return `${exportFileName(from, to)} is downloaded.`;
    }, 'The export could not be prepared.');
  }
  return (
    <>
      <h1>Export orders</h1>
      <p>
        One row per order line, cancelled orders included, for the accounts package. The days are UK days, both included, at most {EXPORT_MAX_DAYS} of them.
      </p>
      <form className="form admin-form" onSubmit={download} noValidate aria-label="Export orders">
        <FormOutcome outcome={outcome} />
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
