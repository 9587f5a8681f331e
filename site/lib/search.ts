import { apiFetch } from './api';
import type { SearchAnswer } from './api-types';
import { productCardOf, type ProductCard } from './types';

/** One search hit as the product grid (and the back office's stock search) takes it. */
export type SearchHit = ProductCard;

/** One page of GET /api/search, its hits as the product grid takes them. */
export interface SearchResult extends Omit<SearchAnswer, 'hits'> {
  hits: SearchHit[];
}

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
export async function searchCatalogue(s: SearchParams, signal?: AbortSignal): Promise<SearchResult> {
  const p = new URLSearchParams({ q: s.q, page: String(s.page) });
  if (s.range) p.set('range', s.range);
  if (s.category) p.set('category', s.category);
  const answer = await apiFetch<SearchAnswer>(`/api/search?${p.toString()}`, { method: 'GET', ...(signal && { signal }) });
  return { ...answer, hits: answer.hits.map(productCardOf) };
}
