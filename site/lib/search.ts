import { apiFetch } from './api';
import type { SearchAnswer, SearchHit } from './api-types';

/** One page of GET /api/search, and one of its hits. */
export type { SearchAnswer as SearchResult, SearchHit } from './api-types';

/** What a search asks for; empty strings mean "any". */
export interface SearchParams {
  q: string;
  page: number;
  range: string;
  category: string;
}

/** Reads a search from the page's query string. */
export function readSearchParams(p: URLSearchParams): SearchParams {
  const page = Number(p.get('page') ?? '1');
  return {
    q: (p.get('q') ?? '').trim(),
    page: Number.isInteger(page) && page > 0 ? page : 1,
    range: p.get('range') ?? '',
    category: p.get('category') ?? '',
  };
}

/** The /search/ link for a search (page 1 and empty filters left out). */
export function searchHref(s: SearchParams): string {
  const p = new URLSearchParams({ q: s.q });
  if (s.range) p.set('range', s.range);
  if (s.category) p.set('category', s.category);
  if (s.page > 1) p.set('page', String(s.page));
  return `/search/?${p.toString()}`;
}

/** Runs a search through the API. */
export function searchCatalogue(s: SearchParams, signal?: AbortSignal): Promise<SearchAnswer> {
  const p = new URLSearchParams({ q: s.q, page: String(s.page) });
  if (s.range) p.set('range', s.range);
  if (s.category) p.set('category', s.category);
  return apiFetch<SearchAnswer>(`/api/search?${p.toString()}`, { method: 'GET', ...(signal && { signal }) });
}
