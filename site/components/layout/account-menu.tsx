import Link from 'next/link';

/** The account menu. Signed out it offers Register and Sign In; the signed-in items
 * (Dashboard, Update Your Details, View Basket, Recommended Products, Sign Out) come
 * with the accounts work. */
export function AccountMenu() {
  return (
    <ul className="account-menu" aria-label="Account">
      <li>
        <Link href="/account/register/" prefetch={false}>
          Register
        </Link>
      </li>
      <li>
        <Link href="/account/login/" prefetch={false}>
          Sign In
        </Link>
      </li>
    </ul>
  );
}
