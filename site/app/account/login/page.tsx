import type { Metadata } from 'next';
import { pageMetadata } from '@/lib/seo';
import { AccountByPhone } from '@/components/layout/coming-soon-account';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Sign in', description: 'Sign in to your TradeShop Wholesale trade account to order at your trade prices.', path: '/account/login/' }),
  robots: { index: false },
};

export default function LoginPage() {
  return (
    <>
      <h1>Sign in</h1>
      <AccountByPhone action="sign-in" />
    </>
  );
}
