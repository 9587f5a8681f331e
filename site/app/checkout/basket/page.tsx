import type { Metadata } from 'next';
import { BasketPage } from '@/components/basket/basket-page';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Your basket', description: `Your ${siteName} basket: quantities, coupon and totals.`, path: '/checkout/basket/' }),
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
