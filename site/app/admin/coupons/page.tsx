import type { Metadata } from 'next';
import { CouponsAdmin } from '@/components/admin/coupons-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Back office: coupons', description: 'The shop’s coupons, their uses and limits, for staff.', path: '/admin/coupons/' }),
  robots: { index: false },
};

export default function Page() {
  return <CouponsAdmin />;
}
