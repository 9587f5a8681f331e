'use client';
import { useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { downloadStatement } from '@/lib/statements';

/** Download statement (PDF): the buyer's statement as statement-{date}.pdf. The button keeps
 * the focus while the PDF is prepared, and a failure is said below it. */
export function StatementDownload({ date }: { date: string }) {
  const [preparing, setPreparing] = useState(false);
  const [error, setError] = useState('');
  async function download() {
    if (preparing) return;
    setPreparing(true);
    setError('');
    try {
      await downloadStatement(date);
    } catch (err) {
      setError(apiErrorText(err, 'The statement could not be prepared. Please try again.'));
    } finally {
      setPreparing(false);
    }
  }
  return (
    <>
      <button type="button" className="button" onClick={() => void download()} aria-disabled={preparing} aria-busy={preparing}>
        {preparing ? 'Preparing PDF…' : 'Download statement (PDF)'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
