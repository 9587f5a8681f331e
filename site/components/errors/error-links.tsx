import Link from '@/components/app/link';

/** The links every error page offers. */
export function ErrorLinks() {
  return (
    <p>
      Go to the <Link href="/">homepage</Link> or <Link href="/help/contact-us/">contact us</Link>.
    </p>
  );
}
