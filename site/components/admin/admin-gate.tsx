'use client';
import Link from '@/components/app/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { useAccount } from '@/components/account/use-account';
import { LoadFailed } from '@/components/errors/load-failed';
import { rememberPage } from '@/lib/archurl';
import { adminPageOf } from './admin-pages';
import { AdminNav } from './admin-nav';
import { useStaff } from './use-staff';

/** Every admin page goes through here. Signed out, the visitor is sent to the shop's sign-in,
 * which brings them back (archUrl); signed in, the back office shows once GET /api/admin/me
 * says the user is staff. A buyer without the staff claim sees "Staff only" and nothing of
 * the back office. Until then the page's own heading stands with what is happening. */
export function AdminGate({ children }: { children: ReactNode }) {
  const account = useAccount();
  const router = useRouter();
  const heading = adminPageOf(usePathname()).heading;
  const uid = account.user === 0 ? '' : account.user.uid;
  const { check, retry } = useStaff(uid);
  const signedOut = account.status === 'ready' && account.user === 0;
  useEffect(() => {
    if (!signedOut) return;
    // Remembered now, whatever the order of effects: the sign-in page returns here.
    rememberPage(document, window.location.pathname, window.location.search, false);
    router.replace('/account/login/');
  }, [signedOut, router]);

  if (account.status === 'loading') return <Waiting heading={heading} text="Loading…" />;
  if (account.user === 0) {
    return (
      <>
        <h1>{heading}</h1>
        <p role="status">
          The back office is for the shop&apos;s staff: taking you to <Link href="/account/login/">sign in</Link>…
        </p>
      </>
    );
  }
  if (check.state === 'checking') return <Waiting heading={heading} text="Checking your access…" />;
  if (check.state === 'refused') {
    return (
      <>
        <h1>Staff only</h1>
        <p className="form-error" role="alert">
          The back office is for the shop&apos;s staff, and you are signed in as {account.user.email}, which is not a staff account. If it should be, ask
          whoever runs the shop to give it staff access, then reload this page.
        </p>
        <p>
          <Link href="/">Back to the shop</Link>
        </p>
      </>
    );
  }
  if (check.state === 'failed') {
    return (
      <>
        <h1>{heading}</h1>
        <LoadFailed what={check.text} retry={retry} />
      </>
    );
  }
  return (
    <>
      <AdminNav email={check.email} />
      {children}
    </>
  );
}

function Waiting({ heading, text }: { heading: string; text: string }) {
  return (
    <>
      <h1>{heading}</h1>
      <p role="status">{text}</p>
    </>
  );
}
