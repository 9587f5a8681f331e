'use client';
import { useState, type FormEvent } from 'react';
import { readPaste, type ReadLine, type Unread } from '@/lib/quick-order';
import { ReadOutcome, type ReadReport } from './read-outcome';

/** Lines pasted from a spreadsheet or typed: "SKU quantity" a line. "Add to rows" puts the
 * lines it can read on the rows (where they are checked) and leaves in the box only the
 * lines it could not read, each named with its reason, so nothing typed is lost. */
export function PasteBox({ onLines }: { onLines: (lines: ReadLine[]) => { added: number; merged: number } | null }) {
  const [text, setText] = useState('');
  const [report, setReport] = useState<ReadReport | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readPaste(text);
    if (read.lines.length === 0 && read.unread.length === 0) {
      setReport({ ok: false, text: 'Paste or type some lines first: a SKU and a quantity on each.', unread: [] });
      return;
    }
    const put = read.lines.length > 0 ? onLines(read.lines) : { added: 0, merged: 0 };
    if (!put) {
      setReport({
        ok: false,
        text: 'These lines would take the quick order over 500 lines: add those there to your basket first, or paste fewer. Nothing was added.',
        unread: [],
      });
      return;
    }
    setText(read.unread.map((u: Unread) => u.text).join('\n'));
    setReport({ ok: read.unread.length === 0, put, unread: read.unread, unreadNote: ' (left in the box to correct)' });
  };

  return (
    <form className="qo-paste" onSubmit={submit} noValidate aria-labelledby="qo-paste-title">
      <h2 id="qo-paste-title">Paste lines</h2>
      <label htmlFor="qo-paste">SKU and quantity in units, one line each</label>
      <p id="qo-paste-hint" className="muted">
        Copy two columns from a spreadsheet, or type them, separated by a tab, comma, semicolon or spaces. Quantities are in units (single items), as on our
        invoices: <code>GC101-00001 12</code> with packs of 6 is 2 packs. No quantity means one pack.
      </p>
      <textarea id="qo-paste" rows={6} value={text} onChange={(e) => setText(e.target.value)} aria-describedby="qo-paste-hint" spellCheck={false} />
      <button type="submit" className="button">
        Add to rows
      </button>
      <ReadOutcome report={report} />
    </form>
  );
}
