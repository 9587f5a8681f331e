import type { Metadata } from 'next';

import { UpdateDetails } from '@/components/account/update-details';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Update Your Details',
    description: 'Update your business name, telephone, marketing preference and sign-in email.',
    path: '/account/change_email/',
  }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Update Your Details</h1>
      <UpdateDetails />
    </>
  );
}
