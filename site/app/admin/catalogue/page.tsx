import type { Metadata } from 'next';
import { CatalogueAdmin } from '@/components/admin/catalogue-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Back office: catalogue',
    description: 'Import the catalogue from a file with its pictures, publish it, and export it as CSV.',
    path: '/admin/catalogue/',
  }),
  robots: { index: false },
};

export default function Page() {
  return <CatalogueAdmin />;
}
