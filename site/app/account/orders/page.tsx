import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AccountOrders } from '@/components/account/account-orders';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Your orders', description: `The orders you placed with ${siteName}.`, path: '/account/orders/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <Suspense
      fallback={
        <>
          <h1>Your orders</h1>
          <p role="status">Loading…</p>
        </>
      }
    >
      <AccountOrders />
    </Suspense>
  );
}
