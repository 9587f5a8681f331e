import type { Metadata } from 'next';
import { OrderComplete } from '@/components/checkout/order-complete';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Order complete', description: `Your ${siteName} order is placed.`, path: '/checkout/complete/order/' }),
  robots: { index: false },
};

// One shell for every order: the edge answers /checkout/complete/{orderId}/ with it and
// the page reads the id from its address.
export const dynamicParams = false;
export const generateStaticParams = () => [{ orderId: 'order' }];

export default function Page() {
  return (
    <>
      <h1>Order complete</h1>
      <OrderComplete />
    </>
  );
}
