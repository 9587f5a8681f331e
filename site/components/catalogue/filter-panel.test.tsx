import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { UNFILTERED, type FacetCounts, type ListingFilters } from '@/lib/listing';
import { CategoryProducts } from './category-products';
import { FilterPanel } from './filter-panel';
import { ListingEmpty } from './listing-empty';
import { ListingToolbar } from './listing-toolbar';

// What the static HTML of a listing's controls says: each facet a fieldset of labelled
// checkboxes with counts (zero disabled, not hidden), the price range, the stock note
// for a signed-out buyer, chips, the toolbar and the empty state.

const facets: FacetCounts[] = [
  {
    key: 'occasion',
    label: 'Occasion',
    values: [
      { id: 'birthday', label: 'Birthday', count: 12 },
      { id: 'wedding', label: 'Wedding', count: 0 },
      { id: 'retirement', label: 'Retirement', count: 0 },
    ],
  },
];
const prices = [
  { id: '45', label: '£0.45' },
  { id: '99', label: '£0.99' },
];
const noop = () => undefined;

describe('FilterPanel', () => {
  it('draws each facet as a fieldset, zero counts disabled unless chosen', () => {
    const html = renderToStaticMarkup(
      <FilterPanel
        facets={facets}
        prices={prices}
        state={{ ...UNFILTERED, selected: { occasion: ['retirement'] } }}
        onChange={noop}
        stock={{ signedIn: false }}
      />,
    );
    expect(html).toContain('<legend>Occasion</legend>');
    expect(html).toContain('<input type="checkbox" name="occasion" value="birthday"/> Birthday (12)</label>');
    expect(html).toContain('<input type="checkbox" disabled="" name="occasion" value="wedding"/> Wedding (0)</label>');
    expect(html).toContain('<input type="checkbox" name="occasion" checked="" value="retirement"/> Retirement (0)</label>');
    expect(html).toContain('<legend>Price range</legend>');
    expect(html).toContain('>Price from</label>');
    expect(html).toContain('>Price to</label>');
    expect(html).toContain('Sign in to filter by stock.');
    expect(html).toContain('aria-label="Remove Occasion: Retirement"');
    expect(html).toContain('Clear all');
  });

  it('offers in stock now to a signed-in buyer', () => {
    const html = renderToStaticMarkup(
      <FilterPanel facets={[]} prices={[]} state={{ ...UNFILTERED, inStock: true }} onChange={noop} stock={{ signedIn: true, checking: true }} />,
    );
    expect(html).toMatch(/<input type="checkbox" name="stock" checked=""\/> In stock now/);
    expect(html).toContain('Checking stock…');
    expect(html).not.toContain('Price range');
  });
});

describe('ListingToolbar and ListingEmpty', () => {
  it('labels the sort, reads out the count and counts the filters on the phone button', () => {
    const html = renderToStaticMarkup(
      <ListingToolbar
        countText="Showing 1 to 48 of 312 lines"
        sorts={['featured', 'price']}
        sort="price"
        onSort={noop}
        filterCount={2}
        onOpenFilters={noop}
        openerRef={null}
      />,
    );
    expect(html).toContain('role="status" data-testid="listing-count" tabindex="-1">Showing 1 to 48 of 312 lines</p>');
    expect(html).toMatch(/<label for="[^"]+">Sort by<\/label>/);
    expect(html).toContain('<option value="price" selected="">Price, low to high</option>');
    expect(html).toContain('aria-haspopup="dialog">Filters (2)</button>');
    expect(renderToStaticMarkup(<ListingEmpty onClear={noop} />)).toContain(
      '<p>No lines match these filters.</p><button type="button" class="button">Clear filters</button>',
    );
  });
});

describe('CategoryProducts', () => {
  it('keeps the static first page and draws the controls from the build counts', () => {
    const filters: ListingFilters = { products: 60, facets, prices, index: '/c/_filter.json' };
    const html = renderToStaticMarkup(
      <CategoryProducts path="/c/" total={60} label="Cards" category={7} filters={filters}>
        <ul className="grid" />
      </CategoryProducts>,
    );
    expect(html).toContain('Showing 1 to 48 of 60 lines');
    expect(html).toContain('<ul class="grid"></ul>');
    expect(html).toContain('Filter lines</h2>');
    expect(html).toContain('<legend>Occasion</legend>');
    expect(html).toContain('href="/c/?page=2"');
  });
});
