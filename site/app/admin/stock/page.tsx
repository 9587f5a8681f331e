import type { Metadata } from 'next';
import { Suspense } from 'react';
import { StockAdmin } from '@/components/admin/stock-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Back office: stock', description: 'Product stock, set or adjusted with a reason, for staff.', path: '/admin/stock/' }),
  robots: { index: false },
};

export default function Page() {
  // The page reads its query (useSearchParams), known only in the browser.
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <StockAdmin />
    </Suspense>
  );
}
