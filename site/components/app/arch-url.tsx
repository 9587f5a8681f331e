'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';
import { NOT_FOUND_ATTR, rememberPage } from '@/lib/archurl';

/** Keeps the archUrl cookie on the page being shown (SPEC.md section 2): after every
 * navigation, a change of query alone included (paging ?page=2), never a 404. The layout
 * wraps it in Suspense: reading the query leaves the static HTML without it. */
export function ArchUrl() {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  useEffect(() => {
    const notFound = document.querySelector(`[${NOT_FOUND_ATTR}]`) !== null;
    rememberPage(document, window.location.pathname, window.location.search, notFound);
  }, [pathname, query]);
  return null;
}
