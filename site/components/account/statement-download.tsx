'use client';
import { PdfDownload } from '@/components/checkout/pdf-download';
import { downloadStatement } from '@/lib/statements';

/** Download statement (PDF): the buyer's statement as statement-{date}.pdf. */
export function StatementDownload({ date }: { date: string }) {
  return (
    <PdfDownload label="Download statement (PDF)" failure="The statement could not be prepared. Please try again." download={() => downloadStatement(date)} />
  );
}
