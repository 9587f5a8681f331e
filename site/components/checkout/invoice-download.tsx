'use client';
import { useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { downloadCreditNote, downloadInvoice, type CreditNote, type Order } from '@/lib/checkout';

/** Download PDF: the order's VAT invoice as INV-….pdf, or with note one of its credit notes
 * as CN-….pdf. The button keeps the focus while the PDF is prepared (aria-disabled, not
 * disabled), and a failure is said below it. */
export function InvoiceDownload({ order, note }: { order: Order; note?: CreditNote }) {
  const [preparing, setPreparing] = useState(false);
  const [error, setError] = useState('');
  async function download() {
    if (preparing) return;
    setPreparing(true);
    setError('');
    try {
      if (note) await downloadCreditNote(order.id, note.number);
      else await downloadInvoice(order);
    } catch (err) {
      setError(apiErrorText(err, 'The PDF could not be prepared. Please try again.'));
    } finally {
      setPreparing(false);
    }
  }
  return (
    <>
      <button type="button" className="button" onClick={() => void download()} aria-disabled={preparing} aria-busy={preparing}>
        {preparing ? 'Preparing PDF…' : note ? `Download credit note ${note.number} (PDF)` : 'Download PDF'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
