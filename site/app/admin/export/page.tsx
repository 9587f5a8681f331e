import type { Metadata } from 'next';
import { ExportAdmin } from '@/components/admin/export-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Back office: export',
    description: 'Order lines, invoices, credit notes, payments and refunds of a range of days as CSV for the accounts package.',
    path: '/admin/export/',
  }),
  robots: { index: false },
};

export default function Page() {
  return <ExportAdmin />;
}
