import type { Metadata } from 'next';
import { BillingForm } from '@/components/checkout/billing-form';
import { CheckoutGuard } from '@/components/checkout/checkout-guard';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Billing', description: `Billing details for your ${siteName} order.`, path: '/checkout/billing/' }),
  robots: { index: false },
};

export default function Page() {
  return (
    <>
      <h1>Billing</h1>
      <CheckoutGuard>
        <BillingForm />
      </CheckoutGuard>
    </>
  );
}
