import Link from '@/components/app/link';

/** What an account page shows to someone who is not signed in. */
export function SignedOutNotice() {
  return (
    <p className="form-error" role="alert">
      No user is currently signed in. <Link href="/account/login/">Sign in</Link> or <Link href="/account/register/">register</Link>.
    </p>
  );
}
