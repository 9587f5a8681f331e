'use client';
import { londonDay } from '@/lib/london-dates';
import { downloadAgedDebt } from '@/lib/statements';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** Download aged debt (CSV): every account's debt by days past due (current, 1–30, 31–60,
 * 61–90, over 90) with a totals row, saved as the order export is. */
export function AgedDebtDownload() {
  const { busy, outcome, submit } = useAdminSubmit();
  function download() {
    if (busy) return;
    const date = londonDay(Date.now());
    void submit(async () => {
      await downloadAgedDebt(date);
      return `aged-debt-${date}.csv is downloaded.`;
    }, 'The aged debt report could not be prepared.');
  }
  return (
    <div className="admin-form">
      <FormOutcome outcome={outcome} />
      <button type="button" className="button" onClick={download} aria-disabled={busy} aria-busy={busy}>
        {busy ? 'Preparing CSV…' : 'Download aged debt (CSV)'}
      </button>
    </div>
  );
}
