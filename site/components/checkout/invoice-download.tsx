'use client';
import { downloadCreditNote, downloadInvoice, type CreditNote, type Order } from '@/lib/checkout';
import { PdfDownload } from './pdf-download';

/** Download PDF: the order's VAT invoice as INV-….pdf, or with note one of its credit notes
 * as CN-….pdf. */
export function InvoiceDownload({ order, note }: { order: Order; note?: CreditNote }) {
  return (
    <PdfDownload
      label={note ? `Download credit note ${note.number} (PDF)` : 'Download PDF'}
      failure="The PDF could not be prepared. Please try again."
      download={() => (note ? downloadCreditNote(order.id, note.number) : downloadInvoice(order))}
    />
  );
}
