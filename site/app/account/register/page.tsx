import type { Metadata } from 'next';
import { AccountByPhone } from '@/components/layout/coming-soon-account';

export const metadata: Metadata = { title: 'Register for a trade account', robots: { index: false } };

export default function RegisterPage() {
  return (
    <>
      <h1>Register for a trade account</h1>
      <AccountByPhone action="registration" />
    </>
  );
}
