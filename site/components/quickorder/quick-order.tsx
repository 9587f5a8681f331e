'use client';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { CsvUpload } from './csv-upload';
import { PasteBox } from './paste-box';
import { QuickOrderLines } from './quick-order-lines';
import { useQuickOrder } from './use-quick-order';

/** The quick order page (signed in only): rows of SKU and packs, a paste box and a CSV
 * upload that fill them, every line checked, and the good lines added in one go. */
export function QuickOrder() {
  const account = useAccount();
  if (account.status === 'loading') return <p role="status">Loading…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  // A new buyer starts with new rows.
  return <QuickOrderForm key={account.user.uid} />;
}

function QuickOrderForm() {
  const order = useQuickOrder();
  return (
    <>
      <p className="lead">
        Type SKUs and packs, paste lines from a spreadsheet or upload a CSV file. Every line is checked against our stock and your prices before anything goes
        in your basket.
      </p>
      <div className="qo-sources">
        <PasteBox onLines={order.addRead} />
        <CsvUpload onLines={order.addRead} />
      </div>
      <QuickOrderLines order={order} />
    </>
  );
}
