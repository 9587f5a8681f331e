import type { Metadata } from 'next';

import { Recommended } from '@/components/account/recommended';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Recommended Products', description: `Products picked for your shop from ${siteName}.`, path: '/account/recommended/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Recommended Products</h1>
      <Recommended />
    </>
  );
}
