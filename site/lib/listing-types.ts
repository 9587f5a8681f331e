import type { ForwardAnswer } from './api-types';

// The wire shapes of a listing's sort and filter controls, mirroring
// functions/internal/pages/listing.go until the generated api-types.ts carries them (the
// lead regenerates it once CategoryPage and RangePage gain their filters). Their comments
// are listing.go's.

/** One value of a facet in a listing: its query-string id, its label and how many of the
 * listing's products have it. */
export interface FacetValueCount {
  id: string;
  label: string;
  count: number;
}

/** One facet of a listing with the values its products have, in the vocabulary's order. */
export interface FacetCounts {
  key: string;
  label: string;
  values: FacetValueCount[];
}

/** One distinct unit price of a listing, cheapest first: id is pence as text (what min and
 * max hold), label as a buyer reads it. A product's place in this list is its price rank. */
export interface PriceOption {
  id: string;
  label: string;
}

/** What a listing page draws its controls from before its filter index is fetched. */
export interface ListingFilters {
  products: number;
  facets: FacetCounts[];
  prices: PriceOption[];
  /** The site path of the listing's filter index ("/outlet/r/x/_filter.json"). */
  index: string;
}

/** A listing's _filter.json: every product in featured order, as columns. */
export interface FilterIndex {
  kind: 'filter-index';
  facets: FacetCounts[];
  prices: PriceOption[];
  new_days: number;
  products: IndexColumns;
}

/** A filter index's products, one column per field (entry i of each is product i). */
export interface IndexColumns {
  sku: string[];
  name: string[];
  slug: string[];
  small_img: string[];
  unit_price: number[];
  pack_size: number[];
  in_stock: number[];
  rrp: number[];
  margin: number[];
  price_rank: number[];
  published: number[];
  values: number[][];
  forward: Record<string, ForwardAnswer>;
}
