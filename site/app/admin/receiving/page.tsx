import type { Metadata } from 'next';
import { ReceivingAdmin } from '@/components/admin/receiving-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Back office: receiving',
    description: 'Deliveries of forward products: recorded, shared among the forward orders by the shop’s rule, and applied.',
    path: '/admin/receiving/',
  }),
  robots: { index: false },
};

export default function Page() {
  return <ReceivingAdmin />;
}
