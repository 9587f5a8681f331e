import type { Metadata } from 'next';
import { BalancesAdmin } from '@/components/admin/balances-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Back office: balances',
    description: 'Every trade account’s balance and overdue debt, and the aged debt report, for staff.',
    path: '/admin/balances/',
  }),
  robots: { index: false },
};

export default function Page() {
  return <BalancesAdmin />;
}
