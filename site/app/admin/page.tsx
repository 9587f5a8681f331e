import type { Metadata } from 'next';
import { Suspense } from 'react';
import { OrdersList } from '@/components/admin/orders-list';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Back office: orders', description: 'The shop’s orders, newest first, for staff.', path: '/admin/' }),
  robots: { index: false },
};

export default function Page() {
  // The page reads its query (useSearchParams), known only in the browser.
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <OrdersList />
    </Suspense>
  );
}
