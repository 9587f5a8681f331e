'use client';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { ApiError, apiErrorText } from '@/lib/api';
import { adminPriceGroupImport, downloadPriceGroup } from '@/lib/admin';
import { decodeImportFile } from '@/lib/catalogue-import';
import {
  appliedText,
  changeCounts,
  changesNothing,
  moreProblemsText,
  priceGroupFileProblem,
  problemLine,
  rowsText,
  type PriceGroup,
  type PriceGroupImport as Answer,
} from '@/lib/price-groups';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

/** Where the import is: what shows below the form. */
type View = { kind: 'none' } | { kind: 'problems'; answer: Answer } | { kind: 'review'; answer: Answer; csv: Csv } | { kind: 'applied'; answer: Answer };
type Csv = { name: string; text: string };

/** One group's CSV: choose a file or paste the text, Check (nothing is written: the
 * problems by line and column, or the review of what it changes), then Apply on the version
 * the check read; and Download CSV, the group as it is. */
export function PriceGroupImport({ group, changed }: { group: PriceGroup; changed: (g: PriceGroup) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [pasted, setPasted] = useState('');
  const [busy, setBusy] = useState<'' | 'checking' | 'applying'>('');
  const [fileProblem, setFileProblem] = useState('');
  const [failure, setFailure] = useState<{ text: string; again: 'check' | 'apply' | null } | null>(null);
  const [view, setView] = useState<View>({ kind: 'none' });
  const heading = useRef<HTMLHeadingElement>(null);
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);
  const download = useAdminSubmit();
  const id = `pg-${group.id}`;

  function show(v: View) {
    setView(v);
    setShown((n) => n + 1);
  }
  function edited() {
    setView({ kind: 'none' });
    setFailure(null);
    setFileProblem('');
  }

  async function check(e?: FormEvent) {
    e?.preventDefault();
    if (busy) return;
    setFailure(null);
    setView({ kind: 'none' });
    let csv: Csv;
    if (file) {
      const problem = priceGroupFileProblem(file);
      const got = problem ? { problem } : decodeImportFile(file.name, new Uint8Array(await file.arrayBuffer()));
      if ('problem' in got) {
        setFileProblem(got.problem);
        return;
      }
      csv = { name: file.name, text: got.text };
    } else if (pasted.trim()) csv = { name: 'pasted.csv', text: pasted };
    else {
      setFileProblem('Choose the group’s CSV file, or paste its text.');
      return;
    }
    setFileProblem('');
    setBusy('checking');
    try {
      const a = await adminPriceGroupImport(group.id, csv, false, group.version);
      show(a.problems.length ? { kind: 'problems', answer: a } : { kind: 'review', answer: a, csv });
    } catch (err) {
      setFailure({ text: apiErrorText(err, 'The file could not be checked.'), again: err instanceof ApiError && err.status < 500 ? null : 'check' });
    } finally {
      setBusy('');
    }
  }

  async function apply() {
    if (busy || view.kind !== 'review') return;
    setBusy('applying');
    setFailure(null);
    try {
      const a = await adminPriceGroupImport(group.id, view.csv, true, view.answer.group.version);
      if (a.problems.length || !a.applied) show({ kind: 'problems', answer: a });
      else {
        show({ kind: 'applied', answer: a });
        changed(a.group);
      }
    } catch (err) {
      // 409: another change to the group came first; check the file again against it.
      const conflict = err instanceof ApiError && err.status === 409;
      setFailure({
        text: apiErrorText(err, 'The file could not be applied.'),
        again: conflict ? 'check' : err instanceof ApiError && err.status < 500 ? null : 'apply',
      });
    } finally {
      setBusy('');
    }
  }

  return (
    <section className="admin-actions" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        {group.name} <span className="muted">({group.id})</span>
      </h2>
      <p>
        {rowsText(group.rows)}. The file has the columns applies_to, code, price, discount_percent and breaks, one row for each product, category or range;
        applying it replaces the whole group. Nothing is written until you have seen what it changes and pressed Apply.
      </p>
      <form className="form admin-form" onSubmit={check} noValidate aria-label={`Import ${group.name}`}>
        <div className="field">
          <label htmlFor={`${id}-file`}>CSV file</label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              edited();
            }}
            aria-invalid={fileProblem ? true : undefined}
            aria-describedby={fileProblem ? `${id}-file-problem` : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-paste`}>Or paste the CSV</label>
          <p id={`${id}-paste-hint`} className="muted" style={{ margin: 0 }}>
            Used when no file is chosen.
          </p>
          <textarea
            id={`${id}-paste`}
            rows={6}
            spellCheck={false}
            value={pasted}
            aria-describedby={`${id}-paste-hint`}
            onChange={(e) => {
              setPasted(e.target.value);
              edited();
            }}
          />
        </div>
        {fileProblem && (
          <p id={`${id}-file-problem`} className="form-error" role="alert">
            {fileProblem}
          </p>
        )}
        <button type="submit" className="button" aria-disabled={busy !== ''} aria-busy={busy === 'checking'}>
          {busy === 'checking' ? 'Checking…' : 'Check'}
        </button>
        <p role="status" className="muted">
          {busy === 'checking' ? 'Checking the file…' : busy === 'applying' ? 'Applying the file…' : ''}
        </p>
      </form>

      {failure && (
        <p className="form-error" role="alert">
          {failure.text}{' '}
          {failure.again && (
            <button type="button" className="link-button" onClick={() => void (failure.again === 'check' ? check() : apply())}>
              {failure.again === 'check' ? 'Check again' : 'Apply again'}
            </button>
          )}
        </p>
      )}
      {view.kind === 'problems' && <Problems heading={heading} answer={view.answer} />}
      {view.kind === 'review' && <Review heading={heading} answer={view.answer} busy={busy === 'applying'} apply={() => void apply()} />}
      {view.kind === 'applied' && (
        <>
          <h3 ref={heading} tabIndex={-1}>
            Price group applied
          </h3>
          <p className="form-ok" role="status">
            {appliedText(view.answer)}
          </p>
        </>
      )}

      <h3>Export</h3>
      <FormOutcome outcome={download.outcome} />
      <p>
        <button
          type="button"
          className="button"
          aria-disabled={download.busy}
          onClick={() => void download.submit(async () => `${await downloadPriceGroup(group.id)} is downloaded.`, 'The group could not be exported.')}
        >
          Download CSV
        </button>
      </p>
    </section>
  );
}

function Problems({ heading, answer: a }: { heading: RefObject<HTMLHeadingElement | null>; answer: Answer }) {
  const n = Math.max(a.problem_count, a.problems.length);
  const more = moreProblemsText(a.problems.length, n);
  return (
    <>
      <h3 ref={heading} tabIndex={-1}>
        {n === 1 ? 'The file has a problem' : `The file has ${n.toLocaleString('en-GB')} problems`}
      </h3>
      <p className="form-error" role="alert">
        Nothing was written. Put {n === 1 ? 'it' : 'them'} right in the file and check it again.
      </p>
      <table className="basket-table admin-table">
        <caption className="sr-only">Problems of the file, by line</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {a.problems.map((p, i) => (
            <tr key={i} data-line={p.line}>
              <td data-label="Line">{problemLine(p.line)}</td>
              <td data-label="Column">{p.column}</td>
              <td data-label="Problem">{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {more && <p>{more}</p>}
    </>
  );
}

function Review({ heading, answer: a, busy, apply }: { heading: RefObject<HTMLHeadingElement | null>; answer: Answer; busy: boolean; apply: () => void }) {
  const nothing = changesNothing(a);
  return (
    <>
      <h3 ref={heading} tabIndex={-1}>
        Review: {rowsText(a.rows)}, nothing written yet
      </h3>
      <p role="status">{nothing ? 'Nothing to change: the file matches the group.' : `Applying the file would make ${changeCounts(a)} rows.`}</p>
      <dl className="admin-facts import-counts">
        <div>
          <dt>Added</dt>
          <dd>{a.added.toLocaleString('en-GB')}</dd>
        </div>
        <div>
          <dt>Changed</dt>
          <dd>{a.changed.toLocaleString('en-GB')}</dd>
        </div>
        <div>
          <dt>Removed</dt>
          <dd>{a.removed.toLocaleString('en-GB')}</dd>
        </div>
      </dl>
      {!nothing && (
        <p>
          <button type="button" className="button" onClick={apply} aria-disabled={busy} aria-busy={busy}>
            {busy ? 'Applying…' : 'Apply'}
          </button>
        </p>
      )}
    </>
  );
}
