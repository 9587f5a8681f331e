import type { Metadata } from 'next';

import { Dashboard } from '@/components/account/dashboard';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Dashboard', description: `Your ${siteName} trade account: details, coupon and orders.`, path: '/account/dashboard/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Dashboard</h1>
      <Dashboard />
    </>
  );
}
