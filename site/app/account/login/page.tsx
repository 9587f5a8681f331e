import type { Metadata } from 'next';

import { LoginForm } from '@/components/account/login-form';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Sign in', description: `Sign in to your ${siteName} trade account to order at your trade prices.`, path: '/account/login/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Sign in</h1>
      <LoginForm shopName={siteName} />
    </>
  );
}
