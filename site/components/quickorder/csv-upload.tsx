'use client';
import { useState, type ChangeEvent } from 'react';
import { decodeImportFile } from '@/lib/catalogue-import';
import { MAX_CSV_BYTES, readCsv, tooManyRows, type ReadLine } from '@/lib/quick-order';
import { ReadOutcome, type ReadReport } from './read-outcome';

/** A CSV file of SKU,QTY (QTY in units, header optional, at most 500 lines) read into the
 * rows as soon as it is chosen, with the sample file to start from. A file of more lines
 * is refused whole, with the rows left as they were. */
export function CsvUpload({ onLines }: { onLines: (lines: ReadLine[]) => { added: number; merged: number } | null }) {
  const [report, setReport] = useState<ReadReport | null>(null);
  const [reading, setReading] = useState(false);

  async function chosen(e: ChangeEvent<HTMLInputElement>) {
    const input = e.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setReport(null);
    setReading(true);
    try {
      const fail = (text: string) => setReport({ ok: false, text, unread: [] });
      if (!/\.csv$/i.test(file.name)) return fail(`${file.name} is not a .csv file.`);
      if (file.size > MAX_CSV_BYTES) return fail(`${file.name} is too big for a quick order: at most 1 MB.`);
      const decoded = decodeImportFile(file.name, new Uint8Array(await file.arrayBuffer()));
      if ('problem' in decoded) return fail(decoded.problem);
      const read = readCsv(decoded.text);
      const tooMany = tooManyRows(file.name, read.rows);
      if (tooMany) return fail(tooMany);
      if (read.lines.length === 0 && read.unread.length === 0) return fail(`${file.name} has no lines: a SKU and a quantity on each line.`);
      const put = read.lines.length > 0 ? onLines(read.lines) : { added: 0, merged: 0 };
      if (!put) return fail(`The lines of ${file.name} would take the quick order over 500 lines: add those there to your basket first. Nothing was added.`);
      setReport({ ok: read.unread.length === 0, put, unread: read.unread, unreadNote: ` from ${file.name}` });
    } catch {
      setReport({ ok: false, text: `${file.name} could not be read. Choose it again.`, unread: [] });
    } finally {
      setReading(false);
      // The same file can be chosen again (after it was corrected).
      input.value = '';
    }
  }

  return (
    <section className="qo-upload" aria-labelledby="qo-upload-title">
      <h2 id="qo-upload-title">Upload a CSV file</h2>
      <label htmlFor="qo-csv">CSV file of SKU and quantity</label>
      <p id="qo-csv-hint" className="muted">
        Two columns, <code>SKU,QTY</code>, with QTY in units as in the paste box; a header line is optional; at most 500 lines.{' '}
        <a href="/quick-order-sample.csv" download>
          Download the sample file
        </a>
      </p>
      <input id="qo-csv" type="file" accept=".csv,text/csv" aria-describedby="qo-csv-hint" onChange={(e) => void chosen(e)} disabled={reading} />
      {reading && <p role="status">Reading the file…</p>}
      <ReadOutcome report={report} />
    </section>
  );
}
