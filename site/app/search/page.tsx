import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SearchResults } from '@/components/search/search-results';
import { getCatalogue } from '@/lib/catalogue';
import { pageMetadata, siteName } from '@/lib/seo';

export const metadata: Metadata = {
  ...pageMetadata({ title: 'Search', description: `Search the ${siteName} catalogue by product name, SKU or range.`, path: '/search/' }),
  robots: { index: false },
};

export default function SearchPage() {
  const { menu } = getCatalogue();
  const ranges = menu.ranges.map((r) => ({ value: r.url_text, label: r.name }));
  const categories = menu.groups.flatMap((g) => g.categories).map((c) => ({ value: String(c.id), label: c.name, range: c.range_url_text }));
  return (
    <>
      <h1>Search</h1>
      <Suspense fallback={<p role="status">Loading…</p>}>
        <SearchResults ranges={ranges} categories={categories} />
      </Suspense>
    </>
  );
}
