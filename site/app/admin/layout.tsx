import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AdminGate } from '@/components/admin/admin-gate';

// The back office (docs/back-office.md): static shells drawn in the browser for staff only,
// kept out of search engines (noindex here and on every page, Disallow in robots.txt, never
// in the sitemap).
export const metadata: Metadata = { robots: { index: false } };

export default function AdminLayout({ children }: { children: ReactNode }) {
  return <AdminGate>{children}</AdminGate>;
}
