import Link from 'next/link';

export default function NotFound() {
  return (
    <>
      <h1>We Were Unable to Find that Page</h1>
      <p>
        Go to the <Link href="/">homepage</Link> or <Link href="/help/contact-us/">contact us</Link>.
      </p>
    </>
  );
}
