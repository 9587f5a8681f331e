import { apiFetch } from './api';
import type { SearchAnswer, SearchHit } from './api-types';
import { parseListingState, SEARCH_SORTS, serialiseListingState, UNFILTERED, type ListingState } from './listing';

/** One page of GET /api/search, and one of its hits. */
export type { SearchHit } from './api-types';

/** GET /api/search's answer: a page of hits, the facets' disjunctive counts over every
 * hit, the hits' distinct prices and the sort it used. */
export type SearchResult = SearchAnswer;

/** What a search asks for: the words, the range and category (empty strings mean "any"),
 * and the sort, filters and page as a listing's (lib/listing; the default sort is relevance). */
export interface SearchParams extends ListingState {
  q: string;
  range: string;
  category: string;
}

/** Reads a search from the page's query string. Facet ids are kept as they are: the
 * server drops the ones it does not know. */
export function readSearchParams(p: URLSearchParams): SearchParams {
  return {
    q: (p.get('q') ?? '').trim(),
    range: p.get('range') ?? '',
    category: p.get('category') ?? '',
    ...parseListingState(p.toString(), { sorts: SEARCH_SORTS }),
  };
}

/** A search as the words, range and category followed by the listing's keys. */
function searchQuery(s: SearchParams, page: number): string {
  const p = new URLSearchParams({ q: s.q });
  if (s.range) p.set('range', s.range);
  if (s.category) p.set('category', s.category);
  const rest = serialiseListingState({ ...s, page });
  return rest ? `${p.toString()}&${rest}` : p.toString();
}

/** The /search/ link for a search (page 1, the default sort and empty filters left out). */
export function searchHref(s: SearchParams): string {
  return `/search/?${searchQuery(s, s.page)}`;
}

/** A search of the same words, range and category without sort or filters. */
export const unsortedSearch = (s: SearchParams): SearchParams => ({ ...s, ...UNFILTERED });

/** Runs a search through the API (without a sort or filters, the default sort and none). */
export function searchCatalogue(
  asked: Pick<SearchParams, 'q' | 'page' | 'range' | 'category'> & Partial<SearchParams>,
  signal?: AbortSignal,
): Promise<SearchResult> {
  const s: SearchParams = { ...UNFILTERED, ...asked };
  const query = `${searchQuery(s, 1)}&page=${s.page}`;
  return apiFetch<SearchResult>(`/api/search?${query}`, { method: 'GET', ...(signal && { signal }) });
}
