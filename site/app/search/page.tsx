import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SearchResults } from '@/components/search/search-results';

export const metadata: Metadata = { title: 'Search', description: 'Search the TradeShop Wholesale catalogue.', robots: { index: false } };

export default function SearchPage() {
  return (
    <>
      <h1>Search</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <SearchResults />
      </Suspense>
    </>
  );
}
