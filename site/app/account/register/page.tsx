import type { Metadata } from 'next';
import Link from '@/components/app/link';
import { RegisterForm } from '@/components/account/register-form';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({
    title: 'Register for a trade account',
    description: `Open a trade account with ${siteName} to buy greeting cards, gift wrap and giftware at trade prices.`,
    path: '/account/register/',
  }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Register for a trade account</h1>
      <RegisterForm />
      <p>
        Already trading with us? <Link href="/account/login/">Sign in</Link>.
      </p>
    </>
  );
}
