import type { Metadata } from 'next';
import { CheckoutGuard } from '@/components/checkout/checkout-guard';
import { DeliveryStep } from '@/components/checkout/delivery-step';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Delivery', description: `Delivery and review for your ${siteName} order.`, path: '/checkout/delivery/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Delivery</h1>
      <CheckoutGuard>
        <DeliveryStep />
      </CheckoutGuard>
    </>
  );
}
