package pages

// The wire shapes of sorting and filtering a listing (a category page, a range page, a
// search): docs/catalogue.md "Sort and filter". A listing's page carries ListingFilters
// (the controls and the counts at build time, for the first paint); its filter index,
// FilterIndex, is a separate file beside the page's _payload.json (_filter.json) that the
// browser fetches on first use and sorts and filters in memory. The counting, sorting and
// the index itself are made by package listing.

// FacetValueCount is one value of a facet in a listing: its id (the query string's), the
// label a buyer reads, and how many of the listing's products have it.
type FacetValueCount struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

// FacetCounts is one facet of a listing with the values its products have, in the
// vocabulary's order (price bands cheapest first, pack sizes smallest first). A facet
// none of the listing's products has is left out.
type FacetCounts struct {
	Key    string            `json:"key"`
	Label  string            `json:"label"`
	Values []FacetValueCount `json:"values"`
}

// PriceOption is one distinct unit price of a listing, cheapest first: ID is the price in
// pence as text ("45"), what the query string's min and max hold; Label as a buyer reads
// it ("£0.45"). A product's place in this list is its price rank.
type PriceOption struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// ListingFilters is what a listing page draws its sort and filter controls from before
// its filter index is fetched: the facets with their counts over the whole listing, the
// price options, and the index's path.
type ListingFilters struct {
	Products int           `json:"products"`
	Facets   []FacetCounts `json:"facets"`
	Prices   []PriceOption `json:"prices"`
	// Index is the site path of the listing's filter index ("/outlet/r/x/_filter.json").
	Index string `json:"index"`
}

// FilterIndex is a listing's _filter.json: every product of the listing in its featured
// order (the shop's shelf order), as columns (entry i of each column is product i), with
// what the browser needs to draw its card and to sort and filter it. Facets number their
// values in order across facets (the first facet's values 0, 1, …, then the next
// facet's), and Values[i] lists product i's value numbers.
type FilterIndex struct {
	Kind   string        `json:"kind" ts:"'filter-index'"`
	Facets []FacetCounts `json:"facets"`
	Prices []PriceOption `json:"prices"`
	// NewDays is how many days "new in" looks back from the build's date.
	NewDays  int          `json:"new_days"`
	Products IndexColumns `json:"products"`
}

// IndexColumns are a filter index's products, one column per field.
type IndexColumns struct {
	SKU  []string `json:"sku"`
	Name []string `json:"name"`
	// Slug makes the product's path, /{slug}/.
	Slug []string `json:"slug"`
	// SmallImg is the grid image ("" for none: the card draws a placeholder).
	SmallImg []string `json:"small_img"`
	// UnitPrice is the list price of a unit in pence ex VAT, shown on the card.
	UnitPrice []int64 `json:"unit_price"`
	PackSize  []int   `json:"pack_size"`
	// InStock is 1 for a product in stock when the index was built, else 0.
	InStock []int `json:"in_stock"`
	// RRP is the recommended retail price of a unit in pence inc VAT, 0 for none; Margin
	// the margin in tenths of a percent it leaves at the list price (0 without an RRP).
	RRP    []int64 `json:"rrp"`
	Margin []int   `json:"margin"`
	// PriceRank is the product's place in FilterIndex.Prices (0 is the cheapest): the
	// price sort and the min/max filter compare it, never a price.
	PriceRank []int `json:"price_rank"`
	// Published is the London date the product was first published, as days since
	// 1970-01-01 (0 when not known): newest first sorts by it.
	Published []int `json:"published"`
	// Values are the product's facet value numbers, ascending.
	Values [][]int `json:"values"`
	// Forward is the pre-order marking of each forward product, by SKU.
	Forward map[string]ForwardAnswer `json:"forward"`
}
