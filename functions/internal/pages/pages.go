package pages

import (
	"cmp"
	"reflect"
	"slices"

	"github.com/tradeshop/functions/internal/apitypes"
	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// featuredPerRange is how many products a range page features.
const featuredPerRange = 8

// ProductCard is a product as a grid shows it. UnitPrice is pence ex VAT. RRP is the
// recommended retail price of one unit in pence inc VAT (nil for none) and Margin the
// margin it leaves at the list price (nil without an RRP): a signed-out visitor's
// margin, worked out here because the browser does no money arithmetic.
type ProductCard struct {
	SKU       string        `json:"sku"`
	Path      string        `json:"path"`
	Slug      string        `json:"slug"`
	Name      string        `json:"name"`
	PackSize  int           `json:"pack_size"`
	UnitPrice int64         `json:"unit_price"`
	VATRate   int           `json:"vat_rate"`
	InStock   bool          `json:"in_stock"`
	SmallImg  string        `json:"small_img"`
	RRP       *int64        `json:"rrp"`
	Margin    *MarginAnswer `json:"margin"`
	// Forward is the product's pre-order marking (nil for an ordinary product).
	Forward *ForwardAnswer `json:"forward"`
}

// MarginAnswer is the margin a unit price leaves at the product's RRP (docs/pricing.md
// "Margin"): RRP in pence inc VAT a unit, Tenths the margin in tenths of a percent (524
// is 52.4%), negative when the price is above the RRP ex VAT. The /api answers that
// carry a margin use this type too.
type MarginAnswer struct {
	RRP    int64 `json:"rrp"`
	Tenths int   `json:"tenths"`
}

// BreakRowAnswer is one row of a break table as a product page shows it: from FromPacks
// to ToPacks packs (nil: and up) a unit costs UnitPrice and a pack PackPrice (pence ex
// VAT, final prices), leaving Margin at the RRP (nil without one). The /api answers that
// carry a buyer's own table use this type too.
type BreakRowAnswer struct {
	FromPacks int           `json:"from_packs"`
	ToPacks   *int          `json:"to_packs"`
	UnitPrice int64         `json:"unit_price"`
	PackPrice int64         `json:"pack_price"`
	Margin    *MarginAnswer `json:"margin"`
}

// MarginOf is m as the wire carries it; nil for nil.
func MarginOf(m *pricing.Margin) *MarginAnswer {
	if m == nil {
		return nil
	}
	return &MarginAnswer{RRP: m.RRP, Tenths: m.Tenths}
}

// RangeLink is a range as menus and the home page link it.
type RangeLink struct {
	URLText     string `json:"url_text"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
	Products    int    `json:"products"`
}

// CategoryLink is a category as menus and range pages link it.
type CategoryLink struct {
	ID           int    `json:"id"`
	Slug         string `json:"slug"`
	Name         string `json:"name"`
	Group        string `json:"group"`
	RangeURLText string `json:"range_url_text"`
	Path         string `json:"path"`
	Products     int    `json:"products"`
}

// MenuGroup is one group of category links in the header menu.
type MenuGroup struct {
	Name       string         `json:"name"`
	Categories []CategoryLink `json:"categories"`
}

// Menu is what the header shows on every page.
type Menu struct {
	Ranges []RangeLink `json:"ranges"`
	Groups []MenuGroup `json:"groups"`
}

// Home is the data of the home page.
type Home struct {
	Kind     string      `json:"kind" ts:"'home'"`
	Ranges   []RangeLink `json:"ranges"`
	Products int         `json:"products"`
}

// RangePage is the data of /outlet/r/{urlText}/.
type RangePage struct {
	Kind       string         `json:"kind" ts:"'range'"`
	Range      RangeLink      `json:"range"`
	Categories []CategoryLink `json:"categories"`
	Featured   []ProductCard  `json:"featured"`
	// Filters are the sort and filter controls over every product of the range
	// (package listing), set by listing.Site.
	Filters ListingFilters `json:"filters"`
}

// CategoryPage is the data of /outlet/section/{slug}/{id}/.
type CategoryPage struct {
	Kind     string        `json:"kind" ts:"'category'"`
	Range    RangeLink     `json:"range"`
	Category CategoryLink  `json:"category"`
	Products []ProductCard `json:"products"`
	// Filters are the page's sort and filter controls (package listing), set by
	// listing.Site.
	Filters ListingFilters `json:"filters"`
}

// ProductDetail is everything a product page shows about the product.
type ProductDetail struct {
	ProductCard
	Description string `json:"description"`
	LargeImg    string `json:"large_img"`
	StockState  string `json:"stock_state" ts:"'in-stock' | 'low-stock' | 'out-of-stock'"`
	// Breaks is the product's public break table at list prices ([] for none).
	Breaks []BreakRowAnswer `json:"breaks"`
}

// ProductPage is the data of a product page, /{slug}/.
type ProductPage struct {
	Kind     string          `json:"kind" ts:"'product'"`
	Product  ProductDetail   `json:"product"`
	Range    ProductRange    `json:"range"`
	Category ProductCategory `json:"category"`
	Related  []ProductCard   `json:"related"`
}

// ProductRange is a product page's range: a RangeLink without the description and the
// count of products, which the page does not show. A product added to or discontinued from
// a range then leaves the payloads of the range's other product pages as they were, and a
// release renders only the pages whose payload changed (docs/build-and-release.md
// "Partial builds").
type ProductRange struct {
	URLText string `json:"url_text"`
	Name    string `json:"name"`
	Path    string `json:"path"`
}

// ProductCategory is a product page's category: a CategoryLink without the count of
// products, for the same reason as ProductRange.
type ProductCategory struct {
	ID           int    `json:"id"`
	Slug         string `json:"slug"`
	Name         string `json:"name"`
	Group        string `json:"group"`
	RangeURLText string `json:"range_url_text"`
	Path         string `json:"path"`
}

// CatalogueFile is the snapshot's catalogue.json: what every page's shell needs.
type CatalogueFile struct {
	GeneratedAt apitypes.UnixMillis `json:"generated_at"`
	Products    int                 `json:"products"` // active products: discontinued ones are not counted
	Menu        Menu                `json:"menu"`
	Pages       []string            `json:"pages"` // every page with a payload: home, ranges, categories, products
	// ProductPaths are the product pages among them, for the catch-all route.
	ProductPaths []string `json:"product_paths"`
}

// PayloadTypes are the types of the snapshot's files (catalogue.json and each page's
// _payload.json), for the wire rules' test and the site's generated types
// (cmd/apitypes).
func PayloadTypes() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[CatalogueFile](), reflect.TypeFor[Home](), reflect.TypeFor[RangePage](),
		reflect.TypeFor[CategoryPage](), reflect.TypeFor[ProductPage](), reflect.TypeFor[FilterIndex]()}
}

// Site is every page's data, keyed by page path.
type Site struct {
	Menu       Menu
	Home       Home
	Ranges     map[string]RangePage
	Categories map[string]CategoryPage
	Products   map[string]ProductPage
}

// relatedPerProduct is how many related products a product page shows.
const relatedPerProduct = 6

// StockState says how much of a product was left when the page was built, without
// giving the exact count, by the rule the API's live availability uses
// (basket.AvailabilityOf): out of stock below one pack, low at 10 packs or fewer.
func StockState(p catalogue.Product) string {
	switch basket.AvailabilityOf(p.Stock, p.PackSize).Status {
	case basket.OutOfStock:
		return "out-of-stock"
	case basket.LowStock:
		return "low-stock"
	default:
		return "in-stock"
	}
}

// Card reshapes a product for a grid, with the margin at the list price.
func Card(p catalogue.Product) ProductCard {
	c := ProductCard{SKU: p.SKU, Path: catalogue.ProductPath(p), Slug: p.Slug, Name: p.Name, PackSize: p.PackSize,
		UnitPrice: p.UnitPrice, VATRate: p.VATRate, InStock: p.Stock > 0, SmallImg: p.SmallImg, Forward: ForwardOf(p)}
	if p.RRP > 0 {
		rrp := p.RRP
		c.RRP = &rrp
		c.Margin = MarginOf(pricing.PriceOne(basket.LineOf(p, p.PackSize), publicTerms).Margin)
	}
	return c
}

// publicTerms are the terms the static pages price at: none, so list prices (not even
// the shop's default discounts, which the live prices add for everyone).
var publicTerms = pricing.Terms{}

// BreakRowsOf is a break table as the wire carries it: [] for none.
func BreakRowsOf(rows []pricing.BreakRow) []BreakRowAnswer {
	out := make([]BreakRowAnswer, len(rows))
	for i, r := range rows {
		out[i] = BreakRowAnswer{FromPacks: r.FromPacks, UnitPrice: r.UnitPrice, PackPrice: r.PackPrice, Margin: MarginOf(r.Margin)}
		if r.ToPacks > 0 {
			to := r.ToPacks
			out[i].ToPacks = &to
		}
	}
	return out
}

// Detail reshapes a product for its page: the card, with the public break table at
// list prices (no account's terms: the static pages are the same for everyone).
func Detail(p catalogue.Product) ProductDetail {
	return ProductDetail{ProductCard: Card(p), Description: p.Description, LargeImg: p.LargeImg,
		StockState: StockState(p), Breaks: BreakRowsOf(pricing.Table(basket.LineOf(p, p.PackSize), publicTerms))}
}

// Build computes every page's data. The header menu's groups come in the catalogue's own
// order: a group's place is that of its first category in display order (Category.Order),
// so the catalogue data, not code, decides the menu, and a new group needs no code.
//
// Discontinued products are left out altogether: they have no page (so the next build
// answers 404 for it and the sitemap drops it), and no list, count, featured or related
// product names them. A category lists its products in shelf order
// (catalogue.CompareShelf): sort order first, then name, then SKU.
func Build(ranges []catalogue.Range, cats []catalogue.Category, products []catalogue.Product) Site {
	ranges = slices.Clone(ranges)
	slices.SortFunc(ranges, func(a, b catalogue.Range) int { return cmp.Compare(a.Order, b.Order) })
	cats = slices.Clone(cats)
	slices.SortFunc(cats, func(a, b catalogue.Category) int { return cmp.Compare(a.Order, b.Order) })
	products = catalogue.Active(products)
	// In shelf order, so each category's list below is in it too.
	slices.SortFunc(products, catalogue.CompareShelf)

	byCat := map[int][]ProductCard{}
	byRange := map[string][]ProductCard{}
	s := Site{Ranges: map[string]RangePage{}, Categories: map[string]CategoryPage{}, Products: make(map[string]ProductPage, len(products))}
	for _, p := range products {
		c := Card(p)
		byCat[p.CategoryID] = append(byCat[p.CategoryID], c)
		byRange[p.RangeURLText] = append(byRange[p.RangeURLText], c)
	}

	rangeLinks := map[string]RangeLink{}
	for _, r := range ranges {
		l := RangeLink{URLText: r.URLText, Name: r.Name, Description: r.Description,
			Path: catalogue.RangePath(r.URLText), Products: len(byRange[r.URLText])}
		rangeLinks[r.URLText] = l
		s.Menu.Ranges = append(s.Menu.Ranges, l)
	}

	groups := map[string]int{}
	catsOfRange := map[string][]CategoryLink{}
	for _, c := range cats {
		l := CategoryLink{ID: c.ID, Slug: c.Slug, Name: c.Name, Group: c.Group, RangeURLText: c.RangeURLText,
			Path: catalogue.CategoryPath(c), Products: len(byCat[c.ID])}
		gi, ok := groups[c.Group]
		if !ok {
			gi = len(s.Menu.Groups)
			groups[c.Group] = gi
			s.Menu.Groups = append(s.Menu.Groups, MenuGroup{Name: c.Group})
		}
		s.Menu.Groups[gi].Categories = append(s.Menu.Groups[gi].Categories, l)
		catsOfRange[c.RangeURLText] = append(catsOfRange[c.RangeURLText], l)
		s.Categories[l.Path] = CategoryPage{Kind: "category", Range: rangeLinks[c.RangeURLText], Category: l,
			Products: nonNil(byCat[c.ID])}
	}

	catLinks := map[int]CategoryLink{}
	for _, g := range s.Menu.Groups {
		for _, c := range g.Categories {
			catLinks[c.ID] = c
		}
	}
	for _, p := range products {
		path := catalogue.ProductPath(p)
		s.Products[path] = ProductPage{
			Kind:    "product",
			Product: Detail(p),
			Range:   productRange(rangeLinks[p.RangeURLText]), Category: productCategory(catLinks[p.CategoryID]),
			Related: related(byCat[p.CategoryID], p.SKU),
		}
	}

	for _, r := range s.Menu.Ranges {
		s.Ranges[r.Path] = RangePage{Kind: "range", Range: r, Categories: nonNil(catsOfRange[r.URLText]),
			Featured: featured(byRange[r.URLText])}
	}
	s.Home = Home{Kind: "home", Ranges: s.Menu.Ranges, Products: len(products)}
	return s
}

// featured picks in-stock products spread evenly across the range, so the choice is
// varied and the same for the same catalogue.
func featured(list []ProductCard) []ProductCard {
	list = slices.Clone(list)
	slices.SortFunc(list, func(a, b ProductCard) int { return cmp.Compare(a.SKU, b.SKU) })
	inStock := slices.DeleteFunc(list, func(p ProductCard) bool { return !p.InStock })
	if len(inStock) <= featuredPerRange {
		return nonNil(inStock)
	}
	out := make([]ProductCard, 0, featuredPerRange)
	step := len(inStock) / featuredPerRange
	for i := range featuredPerRange {
		out = append(out, inStock[i*step])
	}
	return out
}

// related picks the in-stock products next to sku in its category's shelf order (sort
// order, then name), so neighbours share a style or subject.
func related(list []ProductCard, sku string) []ProductCard {
	at := slices.IndexFunc(list, func(c ProductCard) bool { return c.SKU == sku })
	out := make([]ProductCard, 0, relatedPerProduct)
	for d := 1; len(out) < relatedPerProduct && (at-d >= 0 || at+d < len(list)); d++ {
		for _, i := range []int{at + d, at - d} {
			if i >= 0 && i < len(list) && list[i].InStock && len(out) < relatedPerProduct {
				out = append(out, list[i])
			}
		}
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// productRange is a product page's range link: no description or count.
func productRange(l RangeLink) ProductRange {
	return ProductRange{URLText: l.URLText, Name: l.Name, Path: l.Path}
}

// productCategory is a product page's category link: no count.
func productCategory(l CategoryLink) ProductCategory {
	return ProductCategory{ID: l.ID, Slug: l.Slug, Name: l.Name, Group: l.Group, RangeURLText: l.RangeURLText, Path: l.Path}
}
