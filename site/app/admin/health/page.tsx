import type { Metadata } from 'next';
import { HealthAdmin } from '@/components/admin/health-admin';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Back office: health',
    description: 'The shop’s app errors, email outbox, order backlogs and last import and publish, for staff.',
    path: '/admin/health/',
  }),
  robots: { index: false },
};

export default function Page() {
  return <HealthAdmin />;
}
