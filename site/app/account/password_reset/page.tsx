import type { Metadata } from 'next';

import { PasswordResetForm } from '@/components/account/password-reset-form';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Reset your password',
    description: `Get a link to choose a new password for your ${siteName} trade account.`,
    path: '/account/password_reset/',
  }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Reset your password</h1>
      <PasswordResetForm />
    </>
  );
}
