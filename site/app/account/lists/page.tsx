import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AccountLists } from '@/components/lists/account-lists';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Saved lists', description: `Your saved lists of products at ${siteName}.`, path: '/account/lists/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <Suspense
      fallback={
        <>
          <h1>Saved lists</h1>
          <p role="status">Loading…</p>
        </>
      }
    >
      <AccountLists />
    </Suspense>
  );
}
