import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ForwardAdmin } from '@/components/admin/forward-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Back office: forward orders', description: 'Forward products and their demand, for staff.', path: '/admin/forward/' }),
  robots: { index: false },
};

export default function Page() {
  // The page reads its query (useSearchParams), known only in the browser.
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <ForwardAdmin />
    </Suspense>
  );
}
