'use client';
import Link from '@/components/app/link';
import { useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { addAllReport, listToBasket } from '@/lib/lists';

/** "Add all to basket" for a saved list: every line that can be bought goes into the basket
 * in one write; then it says what was added and which lines were not, and why. */
export function AddListToBasket({ id, onDone }: { id: string; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ReturnType<typeof addAllReport> | null>(null);
  const [error, setError] = useState('');
  async function addAll() {
    if (busy) return;
    setBusy(true);
    setError('');
    setReport(null);
    try {
      setReport(addAllReport(await listToBasket(id)));
      onDone();
    } catch (err) {
      setError(apiErrorText(err, 'The list could not be added to your basket. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="add-all list-add-all">
      <button type="button" className="button" onClick={() => void addAll()} disabled={busy} aria-busy={busy}>
        {busy ? 'Adding…' : 'Add all to basket'}
      </button>
      <div role="status" className="list-add-all-report">
        {report && (
          <div className={report.unavailable.length ? 'form-ok list-partly-added' : 'form-ok'}>
            <p>
              {report.added} <Link href="/checkout/basket/">View your basket</Link>.
            </p>
            {report.unavailable.length > 0 && (
              <>
                <p>Not added:</p>
                <ul className="list-unavailable">
                  {report.unavailable.map((u) => (
                    <li key={u.sku} data-sku={u.sku}>
                      {u.text}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
