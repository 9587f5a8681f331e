'use client';
import { useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminLedger, type Ledger, type LedgerEntry } from '@/lib/admin';
import { useAdminRecord } from '../use-admin-record';
import { AllocateForm } from './allocate-form';
import { LedgerFigures, LedgerTable } from './ledger-table';
import { RecordPaymentForm } from './record-payment-form';
import { RefundForm } from './refund-form';

/** The account's money (docs/back-office.md "Payments"): its ledger with the running
 * balance, Record payment, and Allocate or Refund on what a payment or credit on account
 * has left. Each write answers the ledger after, which the page shows at once. */
export function AccountPayments({ uid, changed }: { uid: string; changed?: () => void }) {
  const { state, reload, replace: show } = useAdminRecord(() => adminLedger(uid), 'The ledger could not be loaded.');
  // Each write answers the ledger after it; the account's own figures (owed) moved too.
  const replace = (l: Ledger) => {
    show(l);
    changed?.();
  };
  const [action, setAction] = useState<{ kind: 'allocate' | 'refund'; entry: LedgerEntry } | null>(null);
  const again = () => {
    setAction(null);
    reload();
  };
  let body;
  if (state.status === 'loading') body = <p role="status">Loading the ledger…</p>;
  else if (state.status === 'failed') body = <LoadFailed what={state.text} retry={reload} />;
  else {
    const ledger = state.data;
    // The entry acted on, as the ledger now has it.
    const entry = action && ledger.entries.find((e) => e.reference === action.entry.reference);
    body = (
      <>
        <LedgerFigures ledger={ledger} />
        <LedgerTable ledger={ledger} act={(kind, e) => setAction({ kind, entry: e })} />
        {action && entry && action.kind === 'allocate' && (
          <AllocateForm key={entry.reference} uid={uid} entry={entry} ledger={ledger} done={replace} close={() => setAction(null)} reload={again} />
        )}
        {action && entry && action.kind === 'refund' && (
          <RefundForm key={entry.reference} uid={uid} entry={entry} done={replace} close={() => setAction(null)} reload={again} />
        )}
        <RecordPaymentForm uid={uid} ledger={ledger} recorded={replace} reload={again} />
      </>
    );
  }
  return (
    <section aria-labelledby="ledger-heading" className="account-payments">
      <h2 id="ledger-heading">Ledger</h2>
      {body}
    </section>
  );
}
