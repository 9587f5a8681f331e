'use client';
import Link from '@/components/app/link';
import { useAccount } from '@/components/account/use-account';

/** The header's Quick order link, for signed-in buyers (the page is theirs only). */
export function QuickOrderLink() {
  const account = useAccount();
  if (account.user === 0) return null;
  return (
    <Link href="/account/quick-order/" className="quick-order-link">
      Quick order
    </Link>
  );
}
