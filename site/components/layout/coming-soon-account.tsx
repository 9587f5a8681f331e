import Link from 'next/link';
import { getShopConfig } from '@/lib/shop-config';

/** Shown on account pages until online accounts open: how to open or use an account
 * by phone or email meanwhile. */
export function AccountByPhone({ action }: { action: string }) {
  const { contact } = getShopConfig();
  return (
    <>
      <p>
        Online {action} is being set up. Until then our trade sales team will {action === 'registration' ? 'open your trade account' : 'take your order'} by phone or email.
      </p>
      <ul>
        <li>Phone: {contact.phone} ({contact.hours})</li>
        <li>
          Email: <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </li>
      </ul>
      <p>
        See <Link href="/help/faq/">ordering and delivery</Link> for our trade terms.
      </p>
    </>
  );
}
