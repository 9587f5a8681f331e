import type { Metadata } from 'next';
import { PriceGroupsAdmin } from '@/components/admin/price-groups-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Back office: price groups',
    description: 'Price groups: their prices, discounts and quantity breaks, imported and exported as CSV.',
    path: '/admin/price-groups/',
  }),
  robots: { index: false },
};

export default function Page() {
  return <PriceGroupsAdmin />;
}
