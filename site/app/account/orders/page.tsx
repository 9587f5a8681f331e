import type { Metadata } from 'next';
import { Suspense } from 'react';
import { OrderDetail } from '@/components/checkout/order-detail';
import { pageMetadata } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Your order', description: 'An order you placed with TradeShop Wholesale.', path: '/account/orders/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Your order</h1>
      <Suspense fallback={<p role="status">Loading…</p>}>
        <OrderDetail />
      </Suspense>
    </>
  );
}
