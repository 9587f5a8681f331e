'use client';
import { useState } from 'react';
import { apiErrorText } from '@/lib/api';

/** A button, labelled label, that downloads a PDF the API prepares (download). The button
 * keeps the focus while the PDF is prepared (aria-disabled, not disabled), and a failure is
 * said below it: the API's sentence, or failure. */
export function PdfDownload({ label, failure, download }: { label: string; failure: string; download: () => Promise<void> }) {
  const [preparing, setPreparing] = useState(false);
  const [error, setError] = useState('');
  async function start() {
    if (preparing) return;
    setPreparing(true);
    setError('');
    try {
      await download();
    } catch (err) {
      setError(apiErrorText(err, failure));
    } finally {
      setPreparing(false);
    }
  }
  return (
    <>
      <button type="button" className="button" onClick={() => void start()} aria-disabled={preparing} aria-busy={preparing}>
        {preparing ? 'Preparing PDF…' : label}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
