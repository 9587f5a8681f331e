'use client';
import Link from '@/components/app/link';
import { usePathname } from 'next/navigation';
import { ADMIN_PAGES, adminPageOf } from './admin-pages';

/** The back office's own links, on every admin page, with who is signed in. */
export function AdminNav({ email }: { email: string }) {
  const current = adminPageOf(usePathname());
  return (
    <nav className="admin-nav" aria-label="Back office">
      <ul>
        {ADMIN_PAGES.map((p) => (
          <li key={p.href}>
            <Link href={p.href} aria-current={p === current ? 'page' : undefined}>
              {p.label}
            </Link>
          </li>
        ))}
      </ul>
      <p className="muted admin-who">Staff: {email}</p>
    </nav>
  );
}
