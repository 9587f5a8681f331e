import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AdminOrderPage } from '@/components/admin/admin-order';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Back office: order', description: 'One order with its lines, its state and the moves staff can make.', path: '/admin/orders/' }),
  robots: { index: false },
};

export default function Page() {
  // The page reads its query (useSearchParams), known only in the browser.
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <AdminOrderPage />
    </Suspense>
  );
}
