import type { Metadata } from 'next';

import { SignOut } from '@/components/account/sign-out';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Sign out', description: `Sign out of your ${siteName} trade account.`, path: '/account/logout/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Sign out</h1>
      <SignOut />
    </>
  );
}
