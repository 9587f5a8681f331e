'use client';
import { useState, type FormEvent } from 'react';
import { adminReceiptRecord } from '@/lib/admin';
import type { AdminReceiptPage } from '@/lib/api-types';
import { deliveryLines, MAX_DELIVERY_LINES, parseDeliveryCsv, type DeliveryRow } from '@/lib/receiving';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

const empty = (): DeliveryRow => ({ sku: '', units: '' });

/** The form recording a delivery: a row per SKU (units received, whole packs), typed or
 * read from a CSV file of sku,units in the browser. The API names each wrong line. */
export function ReceiptRecord({ recorded }: { recorded: (page: AdminReceiptPage) => void }) {
  const [rows, setRows] = useState<DeliveryRow[]>([empty()]);
  const [fileProblems, setFileProblems] = useState<string[]>([]);
  const { busy, problems, outcome, submit } = useAdminSubmit();

  const set = (i: number, row: Partial<DeliveryRow>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...row } : r)));

  async function readFile(file: File | undefined) {
    if (!file) return;
    const parsed = parseDeliveryCsv(await file.text());
    setFileProblems(parsed.problems);
    if (parsed.rows.length) setRows(parsed.rows);
  }

  function record(e: FormEvent) {
    e.preventDefault();
    void submit(async () => {
      const page = await adminReceiptRecord(deliveryLines(rows));
      recorded(page);
      setRows([empty()]);
      return `Delivery ${page.id} is recorded: review its proposal below.`;
    }, 'The delivery could not be recorded.');
  }

  return (
    <section className="admin-actions" aria-labelledby="record-heading">
      <h2 id="record-heading">Record a delivery</h2>
      <form className="form admin-form" onSubmit={record} noValidate aria-labelledby="record-heading">
        <FormOutcome outcome={outcome} />
        <div className="field">
          <label htmlFor="delivery-file">CSV file (sku,units)</label>
          <input id="delivery-file" type="file" accept=".csv,text/csv" onChange={(e) => void readFile(e.target.files?.[0])} />
          {fileProblems.map((p) => (
            <p key={p} className="field-error">
              {p}
            </p>
          ))}
        </div>
        <table className="basket-table admin-table delivery-lines">
          <caption className="sr-only">Delivery lines</caption>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col">Units received</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const skuError = problems[`lines.${i}.sku`];
              const unitsError = problems[`lines.${i}.units`];
              return (
                <tr key={i}>
                  <td>
                    <input
                      aria-label={`SKU, line ${i + 1}`}
                      value={r.sku}
                      onChange={(e) => set(i, { sku: e.target.value })}
                      autoComplete="off"
                      spellCheck={false}
                      aria-invalid={skuError ? true : undefined}
                    />
                    {skuError && <p className="field-error">{skuError}</p>}
                  </td>
                  <td>
                    <input
                      aria-label={`Units received, line ${i + 1}`}
                      inputMode="numeric"
                      value={r.units}
                      onChange={(e) => set(i, { units: e.target.value })}
                      aria-invalid={unitsError ? true : undefined}
                    />
                    {unitsError && <p className="field-error">{unitsError}</p>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {problems.lines && <p className="field-error">{problems.lines}</p>}
        <p>
          <button type="button" className="link-button" onClick={() => setRows((rs) => [...rs, empty()])} disabled={rows.length >= MAX_DELIVERY_LINES}>
            Add a line
          </button>
        </p>
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? 'Recording…' : 'Record delivery'}
        </button>
      </form>
    </section>
  );
}
