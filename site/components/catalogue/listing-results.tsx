'use client';
import type { ReactNode } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { listingCard, resultPage, showingText, withoutFilters } from '@/lib/listing';
import { ListingEmpty } from './listing-empty';
import { ProductGrid } from './product-grid';
import { StaleGrid } from './stale-grid';
import type { useListing } from './use-listing';

/** The page of a sorted or filtered listing a category or range page shows, drawn from its
 * filter index: the grid (or, while the index loads, the static grid dimmed; the retry
 * when it failed; the empty state when nothing matches), which page of how many it is,
 * and the count line's words (null until the index is here). */
export function listingResults(
  l: ReturnType<typeof useListing>,
  staticGrid: ReactNode,
  label: (page: number) => string,
  level?: 2 | 3,
): { grid: ReactNode; page: number; pages: number; countText: string | null } {
  const { state, result, listing } = l;
  if (l.status === 'failed') return { grid: <LoadFailed what="These lines could not be loaded." retry={l.retry} />, page: 1, pages: 1, countText: null };
  if (!result || !listing) return { grid: <StaleGrid>{staticGrid}</StaleGrid>, page: 1, pages: 1, countText: null };
  const shown = resultPage(result.order, state.page);
  const grid =
    result.order.length === 0 ? (
      <ListingEmpty onClear={() => l.change(withoutFilters(state))} />
    ) : (
      <ProductGrid products={Array.from(shown.rows, (r) => listingCard(listing, r))} label={label(shown.page)} level={level} order />
    );
  return { grid, page: shown.page, pages: shown.pages, countText: showingText(shown.from, shown.rows.length, result.order.length) };
}
