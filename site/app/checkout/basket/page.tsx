import type { Metadata } from 'next';
import { BasketPage } from '@/components/basket/basket-page';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Your basket', description: 'Your TradeShop Wholesale basket: quantities, coupon and totals.', path: '/checkout/basket/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Your basket</h1>
      <BasketPage />
    </>
  );
}
