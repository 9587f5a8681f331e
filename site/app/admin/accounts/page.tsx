import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AccountsAdmin } from '@/components/admin/accounts-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Back office: accounts', description: 'Trade accounts, their credit and their discounts, for staff.', path: '/admin/accounts/' }),
  robots: { index: false },
};

export default function Page() {
  // The page reads its query (useSearchParams), known only in the browser.
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <AccountsAdmin />
    </Suspense>
  );
}
