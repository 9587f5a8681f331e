import type { Metadata } from 'next';
import { AccountByPhone } from '@/components/layout/coming-soon-account';

export const metadata: Metadata = { title: 'Sign in', robots: { index: false } };

export default function LoginPage() {
  return (
    <>
      <h1>Sign in</h1>
      <AccountByPhone action="sign-in" />
    </>
  );
}
