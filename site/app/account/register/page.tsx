import type { Metadata } from 'next';
import { pageMetadata } from '@/lib/seo';
import { AccountByPhone } from '@/components/layout/coming-soon-account';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Register for a trade account', description: 'Open a trade account with TradeShop Wholesale to buy greeting cards, gift wrap and giftware at trade prices.', path: '/account/register/' }),
  robots: { index: false },
};

export default function RegisterPage() {
  return (
    <>
      <h1>Register for a trade account</h1>
      <AccountByPhone action="registration" />
    </>
  );
}
