'use client';
import { useEffect, useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { apiErrorText } from '@/lib/api';
import { adminReceipt, adminReceiptApply } from '@/lib/admin';
import type { AdminReceiptPage } from '@/lib/api-types';
import { formatUkDateTime } from '@/lib/format';
import { allocationsOf, skuTotals, type Edits } from '@/lib/receiving';
import { FormOutcome } from './form-outcome';
import { ReceiptProposal } from './receipt-proposal';
import { ReceiptReleases } from './receipt-releases';
import { useAdminSubmit } from './use-admin-submit';

type Loaded = { status: 'loading' } | { status: 'ready'; page: AdminReceiptPage } | { status: 'failed'; text: string };

/** One delivery: recorded, its proposal to review, edit and apply (with a confirm); being
 * applied or applied, what it released. first is the answer of its recording, if at hand. */
export function ReceiptView({ id, first, changed }: { id: string; first: AdminReceiptPage | null; changed: () => void }) {
  const [loaded, setLoaded] = useState<Loaded>(first ? { status: 'ready', page: first } : { status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [edits, setEdits] = useState<Edits>({});
  const [confirming, setConfirming] = useState(false);
  const { busy, problems, outcome, submit } = useAdminSubmit();

  useEffect(() => {
    if (first && attempt === 0) return;
    const ctl = new AbortController();
    adminReceipt(id, ctl.signal).then(
      (page) => setLoaded({ status: 'ready', page }),
      (err: unknown) => !ctl.signal.aborted && setLoaded({ status: 'failed', text: apiErrorText(err, `Delivery ${id} could not be loaded.`) }),
    );
    return () => ctl.abort();
  }, [id, first, attempt]);

  if (loaded.status === 'loading') return <p role="status">Loading delivery {id}…</p>;
  if (loaded.status === 'failed') return <LoadFailed what={loaded.text} retry={() => setAttempt((n) => n + 1)} />;
  const page = loaded.page;
  const wrong = page.proposal.some((s) => skuTotals(s, edits).problems.length > 0);

  function apply() {
    setConfirming(false);
    void submit(async () => {
      const done = await adminReceiptApply(page.id, allocationsOf(page, edits));
      setLoaded({ status: 'ready', page: done });
      changed();
      return done.state === 'applied'
        ? `Delivery ${done.id} is applied: ${done.released} packs released to orders, ${done.leftover} to stock.`
        : `Delivery ${done.id} is still being applied: apply it again to finish.`;
    }, `Delivery ${page.id} could not be applied.`);
  }

  return (
    <section className="admin-actions receipt" aria-labelledby="receipt-heading" data-receipt={page.id} data-state={page.state}>
      <h2 id="receipt-heading">
        Delivery {page.id} ({page.state})
      </h2>
      <p className="muted">
        Recorded {formatUkDateTime(page.created_at)} by {page.by}
        {page.applied_at !== null && `; applied ${formatUkDateTime(page.applied_at)} by ${page.applied_by}`}.
      </p>
      <FormOutcome outcome={outcome} />
      {busy && <p role="status">Applying the allocation: releasing each order in turn…</p>}
      {page.state === 'recorded' ? (
        <>
          {page.proposal.map((s) => (
            <ReceiptProposal key={s.sku} sku={s} edits={edits} setEdits={setEdits} problems={problems} />
          ))}
          {confirming ? (
            <p role="alert">
              Apply this allocation? Release orders and invoices are made and the leftover goes to stock; it cannot be undone.{' '}
              <button type="button" className="button" onClick={apply} aria-disabled={busy}>
                Yes, apply it
              </button>{' '}
              <button type="button" className="link-button" onClick={() => setConfirming(false)}>
                Not yet
              </button>
            </p>
          ) : (
            <button type="button" className="button" onClick={() => setConfirming(true)} aria-disabled={busy || wrong}>
              Apply allocation
            </button>
          )}
        </>
      ) : (
        <>
          <p>
            {page.released} packs released to orders, {page.leftover} packs to stock.
          </p>
          {page.state === 'applying' && (
            <button type="button" className="button" onClick={apply} aria-disabled={busy}>
              Finish applying
            </button>
          )}
          <ReceiptReleases page={page} />
        </>
      )}
    </section>
  );
}
