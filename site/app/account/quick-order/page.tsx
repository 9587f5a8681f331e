import type { Metadata } from 'next';
import { QuickOrder } from '@/components/quickorder/quick-order';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Quick order', description: `Order by SKU from ${siteName}: type, paste or upload your lines.`, path: '/account/quick-order/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Quick order</h1>
      <QuickOrder />
    </>
  );
}
