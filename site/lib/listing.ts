import type { FacetCounts, FilterIndex, PriceOption } from './api-types';
import { formatCount } from './format';
import { CATEGORY_PAGE_SIZE } from './paging';
import type { GridCard } from './types';

// Sorting and filtering a listing (a category page, a range page) in the browser, from its
// filter index (docs/catalogue.md "Sort and filter"), and the query string that holds a
// buyer's choice. The index is decoded once into typed arrays; each change then costs one
// pass over the products for the disjunctive counts and the filter, and a walk of a
// memoised sort order. Prices are never compared here: the price sorts and the min/max
// filter use each product's rank among the listing's prices, which the index carries.

export type { FacetCounts, FacetValueCount, FilterIndex, ListingFilters, PriceOption } from './api-types';

/** The sorts of a category or range page, the default first. */
export const LISTING_SORTS = ['featured', 'newest', 'price', 'price-desc', 'name'] as const;
/** The sorts of a search, the default first. */
export const SEARCH_SORTS = ['relevance', 'newest', 'price', 'price-desc', 'name'] as const;
/** What the Sort select says of each sort. */
export const SORT_LABELS: Record<string, string> = {
  featured: 'Featured',
  relevance: 'Relevance',
  newest: 'Newest',
  price: 'Price, low to high',
  'price-desc': 'Price, high to low',
  name: 'Name',
};
/** The facets' query-string keys in the order the panel shows them and URLs write them. */
export const FACET_KEYS = ['occasion', 'recipient', 'age', 'style', 'band', 'pack', 'new'] as const;

/** A buyer's sort, filters and page on a listing. */
export interface ListingState {
  /** '' for the default sort, which URLs leave out; 'featured' only when a range page's
   * "See all" set it explicitly, so the range shows its whole listing. */
  sort: string;
  /** The chosen value ids of each facet, in the facet's order; a facet without a choice is absent. */
  selected: Record<string, string[]>;
  /** PriceOption ids, inclusive; '' for no bound. */
  min: string;
  max: string;
  inStock: boolean;
  /** 1-based. */
  page: number;
}

export const UNFILTERED: ListingState = { sort: '', selected: {}, min: '', max: '', inStock: false, page: 1 };

/** What a query string is read against: the listing's facets and prices (ids it does not
 * have are dropped) and its sorts. Without facets or prices (a search, before its answer)
 * any well-formed id is kept and the server drops what it does not know. */
export interface Vocabulary {
  facets?: readonly FacetCounts[];
  prices?: readonly PriceOption[];
  sorts?: readonly string[];
}

const ID = /^[a-z0-9-]+$/;

/** Reads a listing's state from a query string ("?sort=price&occasion=birthday"). */
export function parseListingState(search: string, vocab: Vocabulary = {}): ListingState {
  const p = new URLSearchParams(search);
  const sorts = vocab.sorts ?? LISTING_SORTS;
  const rawSort = p.get('sort') ?? '';
  // The default sort is left out, except featured written on purpose (a range's "See all").
  const sort = sorts.includes(rawSort) && (rawSort !== sorts[0] || rawSort === 'featured') ? rawSort : '';
  const selected: Record<string, string[]> = {};
  for (const key of FACET_KEYS) {
    const raw = (p.get(key) ?? '').split(',').filter((id) => ID.test(id));
    if (raw.length === 0) continue;
    let ids: string[];
    if (vocab.facets) {
      const facet = vocab.facets.find((f) => f.key === key);
      ids = facet ? facet.values.map((v) => v.id).filter((id) => raw.includes(id)) : [];
    } else ids = [...new Set(raw)];
    if (ids.length > 0) selected[key] = ids;
  }
  const bound = (key: string) => {
    const id = p.get(key) ?? '';
    if (vocab.prices) return vocab.prices.some((o) => o.id === id) ? id : '';
    return /^\d+$/.test(id) ? id : '';
  };
  const page = Number(p.get('page') ?? '1');
  return { sort, selected, min: bound('min'), max: bound('max'), inStock: p.get('stock') === 'in', page: Number.isInteger(page) && page > 0 ? page : 1 };
}

/** The query string of a state, without the "?", keys in the contract's order (sort, the
 * facets, min, max, stock, page) and defaults left out; facet ids are joined by commas. */
export function serialiseListingState(s: ListingState): string {
  const parts: string[] = [];
  if (s.sort) parts.push(`sort=${encodeURIComponent(s.sort)}`);
  for (const key of FACET_KEYS) {
    const ids = s.selected[key];
    if (ids && ids.length > 0) parts.push(`${key}=${ids.map(encodeURIComponent).join(',')}`);
  }
  if (s.min) parts.push(`min=${encodeURIComponent(s.min)}`);
  if (s.max) parts.push(`max=${encodeURIComponent(s.max)}`);
  if (s.inStock) parts.push('stock=in');
  if (s.page > 1) parts.push(`page=${s.page}`);
  return parts.join('&');
}

/** The link of a state on a page. */
export function listingHref(path: string, s: ListingState): string {
  const q = serialiseListingState(s);
  return q ? `${path}?${q}` : path;
}

/** How many filters are chosen (the phone's "Filters (3)"): each facet value, each price
 * bound and in stock. */
export function activeFilterCount(s: ListingState): number {
  return Object.values(s.selected).reduce((n, ids) => n + ids.length, 0) + (s.min ? 1 : 0) + (s.max ? 1 : 0) + (s.inStock ? 1 : 0);
}

/** Whether a state is a filtered view (a sort or any filter): such a view is noindex, and
 * a range page shows its whole listing instead of its featured lines. */
export function isFilteredView(s: ListingState): boolean {
  return s.sort !== '' || activeFilterCount(s) > 0;
}

/** The state with one facet value chosen or not, back on page 1; ids stay in the facet's order. */
export function withValue(s: ListingState, facets: readonly FacetCounts[], key: string, id: string, on: boolean): ListingState {
  const facet = facets.find((f) => f.key === key);
  const now = new Set(s.selected[key] ?? []);
  if (on) now.add(id);
  else now.delete(id);
  const ids = facet ? facet.values.map((v) => v.id).filter((v) => now.has(v)) : [...now];
  const selected = { ...s.selected };
  if (ids.length > 0) selected[key] = ids;
  else delete selected[key];
  return { ...s, selected, page: 1 };
}

/** The state without any filter (the sort stays), on page 1. */
export function withoutFilters(s: ListingState): ListingState {
  return { ...s, selected: {}, min: '', max: '', inStock: false, page: 1 };
}

/** One chosen filter as a chip shows it, and the state without it. */
export interface FilterChip {
  label: string;
  without: ListingState;
}

/** The chosen filters, in the panel's order, each with the state that drops it. */
export function filterChips(s: ListingState, facets: readonly FacetCounts[], prices: readonly PriceOption[]): FilterChip[] {
  const chips: FilterChip[] = [];
  for (const f of facets) {
    for (const id of s.selected[f.key] ?? []) {
      const v = f.values.find((x) => x.id === id);
      if (v) chips.push({ label: `${f.label}: ${v.label}`, without: withValue(s, facets, f.key, id, false) });
    }
  }
  const label = (id: string) => prices.find((o) => o.id === id)?.label ?? id;
  if (s.min) chips.push({ label: `From ${label(s.min)}`, without: { ...s, min: '', page: 1 } });
  if (s.max) chips.push({ label: `To ${label(s.max)}`, without: { ...s, max: '', page: 1 } });
  if (s.inStock) chips.push({ label: 'In stock now', without: { ...s, inStock: false, page: 1 } });
  return chips;
}

/** A filter index decoded for sorting and filtering: per-product values in typed arrays,
 * made once, and each sort's order once it has been asked for. */
export interface Listing {
  readonly index: FilterIndex;
  readonly size: number;
  /** Product i's facet value numbers are rowValues[rowStart[i] .. rowStart[i+1]). */
  readonly rowStart: Int32Array;
  readonly rowValues: Int32Array;
  /** The facet (its place in index.facets) of each value number. */
  readonly facetOfValue: Int32Array;
  /** The first value number of each facet. */
  readonly facetStart: Int32Array;
  /** Each product's place among the listing's prices (0 the cheapest). */
  readonly ranks: Int32Array;
  readonly published: Int32Array;
  readonly orders: Map<string, Int32Array>;
  readonly stockMasks: WeakMap<ReadonlySet<string>, Uint8Array>;
  readonly cards: (GridCard | undefined)[];
}

/** Decodes a filter index; throws when its columns disagree in length. */
export function decodeListing(index: FilterIndex): Listing {
  const cols = index.products;
  const size = cols.sku.length;
  for (const [name, col] of Object.entries(cols)) {
    if (Array.isArray(col) && col.length !== size) throw new Error(`filter index column ${name} has ${col.length} entries, not ${size}`);
  }
  const facetStart = new Int32Array(index.facets.length);
  const valueCount = index.facets.reduce((n, f, i) => {
    facetStart[i] = n;
    return n + f.values.length;
  }, 0);
  const facetOfValue = new Int32Array(valueCount);
  index.facets.forEach((f, i) => facetOfValue.fill(i, facetStart[i], (facetStart[i] ?? 0) + f.values.length));
  const rowStart = new Int32Array(size + 1);
  let n = 0;
  for (let i = 0; i < size; i++) {
    rowStart[i] = n;
    n += cols.values[i]?.length ?? 0;
  }
  rowStart[size] = n;
  const rowValues = new Int32Array(n);
  for (let i = 0; i < size; i++) {
    const vs = cols.values[i] ?? [];
    for (let j = 0; j < vs.length; j++) {
      const v = vs[j] ?? 0;
      if (v < 0 || v >= valueCount) throw new Error(`filter index product ${i} has value ${v}, not one of ${valueCount}`);
      rowValues[(rowStart[i] ?? 0) + j] = v;
    }
  }
  return {
    index,
    size,
    rowStart,
    rowValues,
    facetOfValue,
    facetStart,
    ranks: Int32Array.from(cols.price_rank),
    published: Int32Array.from(cols.published),
    orders: new Map(),
    stockMasks: new WeakMap(),
    cards: new Array<GridCard | undefined>(size),
  };
}

/** A name as the name sort compares it: lower case without accents ("Émile" as "emile"),
 * as the search API sorts (functions/internal/listing foldName). */
const foldName = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The products in a sort's order (memoised per listing): featured is the index's order;
 * newest by published, latest first; price and price-desc by price rank; name by the
 * folded name (foldName), then SKU, compared as plain strings: a collator's compare made
 * the first name sort of 2,000 lines take 60 to 100 ms at a phone's speed. Ties fall back
 * to featured order. */
export function sortOrder(l: Listing, sort: string): Int32Array {
  const key = sort === '' ? 'featured' : sort;
  const known = l.orders.get(key);
  if (known) return known;
  const rows = Array.from({ length: l.size }, (_, i) => i);
  const { ranks, published } = l;
  const at = (a: Int32Array, i: number) => a[i] ?? 0;
  const skus = l.index.products.sku;
  const folded = key === 'name' ? l.index.products.name.map(foldName) : [];
  const byName = (a: number, b: number) => {
    const x = folded[a] ?? '';
    const y = folded[b] ?? '';
    if (x !== y) return x < y ? -1 : 1;
    const p = skus[a] ?? '';
    const q = skus[b] ?? '';
    return p < q ? -1 : p > q ? 1 : 0;
  };
  const compare: ((a: number, b: number) => number) | null =
    key === 'newest'
      ? (a, b) => at(published, b) - at(published, a) || a - b
      : key === 'price'
        ? (a, b) => at(ranks, a) - at(ranks, b) || a - b
        : key === 'price-desc'
          ? (a, b) => at(ranks, b) - at(ranks, a) || a - b
          : key === 'name'
            ? (a, b) => byName(a, b) || a - b
            : null;
  if (compare) rows.sort(compare);
  const order = Int32Array.from(rows);
  l.orders.set(key, order);
  return order;
}

/** What a state shows of a listing: the products passing its filters in its sort's order,
 * and every facet's values with their disjunctive counts (a value's count is the products
 * passing every other facet's choice, the price bounds and in stock, that have it). */
export interface ListingResult {
  order: Int32Array;
  facets: FacetCounts[];
}

/** Sorts and filters a listing. notInStock holds the SKUs POST /api/listing-stock
 * answered; without it, in stock filters nothing (the buyer is signed out or it is loading). */
export function applyListing(l: Listing, s: ListingState, notInStock?: ReadonlySet<string> | null): ListingResult {
  const facets = l.index.facets;
  const valueCount = l.facetOfValue.length;
  const chosen = new Uint8Array(valueCount);
  const withChoice: number[] = [];
  facets.forEach((f, i) => {
    const ids = s.selected[f.key];
    if (!ids || ids.length === 0) return;
    let any = false;
    f.values.forEach((v, j) => {
      if (ids.includes(v.id)) {
        chosen[(l.facetStart[i] ?? 0) + j] = 1;
        any = true;
      }
    });
    if (any) withChoice.push(i);
  });
  const prices = l.index.prices;
  const lowIdx = s.min ? prices.findIndex((o) => o.id === s.min) : -1;
  const highIdx = s.max ? prices.findIndex((o) => o.id === s.max) : -1;
  const low = lowIdx < 0 ? 0 : lowIdx;
  const high = highIdx < 0 ? Number.MAX_SAFE_INTEGER : highIdx;
  const outOfStock = s.inStock && notInStock ? stockMask(l, notInStock) : null;

  const counts = new Int32Array(valueCount);
  const pass = new Uint8Array(l.size);
  const hit = new Uint8Array(facets.length);
  const { rowStart, rowValues, facetOfValue, ranks } = l;
  for (let r = 0; r < l.size; r++) {
    const rank = ranks[r] ?? 0;
    if (rank < low || rank > high || (outOfStock && outOfStock[r])) continue;
    const from = rowStart[r] ?? 0;
    const to = rowStart[r + 1] ?? 0;
    let missed = 0;
    let missedFacet = -1;
    if (withChoice.length > 0) {
      hit.fill(0);
      for (let k = from; k < to; k++) {
        const v = rowValues[k] ?? 0;
        if (chosen[v]) hit[facetOfValue[v] ?? 0] = 1;
      }
      for (const f of withChoice) {
        if (!hit[f]) {
          missed++;
          missedFacet = f;
        }
      }
    }
    if (missed === 0) {
      pass[r] = 1;
      for (let k = from; k < to; k++) {
        const v = rowValues[k] ?? 0;
        counts[v] = (counts[v] ?? 0) + 1;
      }
    } else if (missed === 1) {
      // Fails only this facet's choice: it counts towards that facet's other values.
      for (let k = from; k < to; k++) {
        const v = rowValues[k] ?? 0;
        if (facetOfValue[v] === missedFacet) counts[v] = (counts[v] ?? 0) + 1;
      }
    }
  }

  const sorted = sortOrder(l, s.sort);
  const order = new Int32Array(l.size);
  let total = 0;
  for (let k = 0; k < sorted.length; k++) {
    const r = sorted[k] ?? 0;
    if (pass[r]) order[total++] = r;
  }
  return {
    order: order.subarray(0, total),
    facets: facets.map((f, i) => ({
      key: f.key,
      label: f.label,
      values: f.values.map((v, j) => ({ id: v.id, label: v.label, count: counts[(l.facetStart[i] ?? 0) + j] ?? 0 })),
    })),
  };
}

function stockMask(l: Listing, notInStock: ReadonlySet<string>): Uint8Array {
  const known = l.stockMasks.get(notInStock);
  if (known) return known;
  const mask = new Uint8Array(l.size);
  l.index.products.sku.forEach((sku, r) => {
    if (notInStock.has(sku)) mask[r] = 1;
  });
  l.stockMasks.set(notInStock, mask);
  return mask;
}

/** The pages a result of total products makes. */
export const pageCount = (total: number, size = CATEGORY_PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

/** One page of a result: the products shown and the first one's place (0-based). */
export function resultPage(order: Int32Array, page: number, size = CATEGORY_PAGE_SIZE): { from: number; rows: Int32Array; page: number; pages: number } {
  const pages = pageCount(order.length, size);
  const p = Math.min(Math.max(page, 1), pages);
  const from = (p - 1) * size;
  return { from, rows: order.subarray(from, from + size), page: p, pages };
}

/** The grid card of a product of the index (made once per product). */
export function listingCard(l: Listing, r: number): GridCard {
  const known = l.cards[r];
  if (known) return known;
  const c = l.index.products;
  const sku = c.sku[r] ?? '';
  const rrp = c.rrp[r] ?? 0;
  const card: GridCard = {
    sku,
    path: `/${c.slug[r] ?? ''}/`,
    name: c.name[r] ?? '',
    pack_size: c.pack_size[r] ?? 1,
    unit_price: c.unit_price[r] ?? 0,
    in_stock: c.in_stock[r] === 1,
    small_img: c.small_img[r] ?? '',
    margin: rrp > 0 ? { rrp, tenths: c.margin[r] ?? 0 } : null,
    forward: c.forward[sku] ?? null,
  };
  l.cards[r] = card;
  return card;
}

/** "Showing 1 to 48 of 312 lines" for a page of a result. */
export function showingText(from: number, shown: number, total: number): string {
  if (total === 0) return '0 lines';
  return `Showing ${count(from + 1)} to ${count(from + shown)} of ${linesText(total)}`;
}

/** A count as a buyer reads it, with thousands grouped ("1,436"). */
export const count = formatCount;

/** "1 line", "1,436 lines". */
export const linesText = (n: number) => `${count(n)} ${n === 1 ? 'line' : 'lines'}`;
