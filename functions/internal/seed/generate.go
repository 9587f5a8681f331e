package seed

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
)

// DefaultProducts is the size of the default seed catalogue.
const DefaultProducts = 3000

// MaxProducts bounds the generator so a typo cannot fill a disk.
const MaxProducts = 200_000

// Catalogue is a whole generated catalogue.
type Catalogue struct {
	Ranges     []catalogue.Range
	Categories []catalogue.Category
	Products   []catalogue.Product
}

// rangeCodes are the SKU prefixes of each outlet range.
var rangeCodes = map[string]string{
	"wholesale_greeting_cards": "GC",
	"wholesale-christmas":      "XM",
	"wholesale_gift_wrap":      "GW",
	"wholesale_partyware":      "PW",
	"wholesale_balloons":       "BL",
	"wholesale_giftware":       "GF",
	"wholesale_stationery":     "ST",
}

// Categories returns every seed category in menu order.
func Categories() []catalogue.Category {
	out := make([]catalogue.Category, 0, len(categoryDefs))
	for i, d := range categoryDefs {
		out = append(out, catalogue.Category{
			ID:           d.id,
			Slug:         catalogue.Slugify(d.name),
			Name:         d.name,
			Group:        d.group,
			RangeURLText: d.rng,
			Order:        i + 1,
		})
	}
	return out
}

// Generate builds a catalogue of exactly n products (n between 1 and MaxProducts).
// Product i of a category is the same whatever n is, so a larger catalogue contains
// a smaller one.
func Generate(n int) (Catalogue, error) {
	if n < 1 || n > MaxProducts {
		return Catalogue{}, fmt.Errorf("products must be between 1 and %d, got %d", MaxProducts, n)
	}
	counts := share(n)
	c := Catalogue{Ranges: Ranges, Categories: Categories(), Products: make([]catalogue.Product, 0, n)}
	for ci, d := range categoryDefs {
		names := map[string]int{}
		for i := range counts[ci] {
			p := product(d, i, names)
			c.Products = append(c.Products, p)
		}
	}
	return c, nil
}

// share splits n products over the categories by weight; the remainder goes to the
// first categories so the total is exact.
func share(n int) []int {
	total := 0
	for _, d := range categoryDefs {
		total += d.weight
	}
	counts := make([]int, len(categoryDefs))
	given := 0
	for i, d := range categoryDefs {
		counts[i] = n * d.weight / total
		given += counts[i]
	}
	for i := 0; given < n; i = (i + 1) % len(counts) {
		counts[i]++
		given++
	}
	return counts
}

func product(d catDef, i int, names map[string]int) catalogue.Product {
	r := rand.New(rand.NewPCG(uint64(d.id), uint64(i)))
	fam := families[d.family]
	style := styles[r.IntN(len(styles))]
	subject := d.subjects[r.IntN(len(d.subjects))]

	name := style + " " + subject + " " + d.noun
	names[name]++
	if k := names[name]; k > 1 {
		name = fmt.Sprintf("%s, Design %d", name, k)
	}

	sku := fmt.Sprintf("%s%d-%05d", rangeCodes[d.rng], d.id, i+1)
	pack := fam.packs[r.IntN(len(fam.packs))]
	price := fam.minPrice
	if span := fam.maxPrice - fam.minPrice; span > 0 {
		// Trade prices end in 5 or 0 pence, as printed price lists do.
		price = (fam.minPrice + r.Int64N(span+1)) / 5 * 5
		price = max(price, fam.minPrice)
	}
	stock := 0
	if r.IntN(100) >= 4 { // about 4% of lines are out of stock
		stock = pack * (2 + r.IntN(200))
	}
	if soldOut[sku] {
		stock = 0
	}
	lowerSKU := strings.ToLower(sku)
	const vat = 20
	return catalogue.Product{
		SKU:          sku,
		Slug:         catalogue.Slugify(name) + "-" + lowerSKU,
		Name:         name,
		Description:  describe(d, fam, style, subject, pack),
		CategoryID:   d.id,
		RangeURLText: d.rng,
		PackSize:     pack,
		UnitPrice:    price,
		VATRate:      vat,
		Stock:        stock,
		SmallImg:     "/media/products/" + lowerSKU + "-s.svg",
		LargeImg:     "/media/products/" + lowerSKU + "-l.svg",
		Status:       catalogue.StatusActive,
		RRP:          shelfPrice(d, i, price, vat),
		Breaks:       seedBreaks(d, i, price),
		Facets:       facetsOf(d, style, subject),
	}
}

// shelfPrice is a believable recommended retail price of one unit inc VAT for a product
// of unit pence ex VAT: 2 to 2.6 times the unit price with VAT, on the nearest of the
// price points shops use (.25, .49, .50, .75, .99). It draws from its own stream, so the
// product's other figures are what they were before products had an RRP.
func shelfPrice(d catDef, i int, unit int64, vat int) int64 {
	r := rand.New(rand.NewPCG(uint64(d.id), uint64(i)|1<<40))
	target := unit * int64(100+vat) * int64(200+r.IntN(61)) / 10_000 // pence inc VAT
	best := int64(25)
	for pounds := max(0, target/100-1); pounds <= target/100+1; pounds++ {
		for _, end := range []int64{25, 49, 50, 75, 99} {
			if c := pounds*100 + end; abs(c-target) < abs(best-target) {
				best = c
			}
		}
	}
	return best
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// breaksCategory is the category whose first products have quantity breaks in the seed
// (Age Balloons): docs/catalogue.md names them, and no other test prices them past one
// pack.
const breaksCategory = 603

// seedBreaks is the public break table of the first four products of breaksCategory
// (none for the rest): unit prices for the first and third, percentages for the second
// and fourth, so both kinds show on pages and in baskets.
func seedBreaks(d catDef, i int, unit int64) pricing.Ladder {
	if d.id != breaksCategory {
		return nil
	}
	step := max(5, unit/20/5*5) // about 5% a step, in whole 5p as price lists print them
	switch i {
	case 0:
		return pricing.Ladder{{From: 6, Price: unit - step}, {From: 12, Price: unit - 2*step}}
	case 1:
		return pricing.Ladder{{From: 6, Percent: 5}, {From: 12, Percent: 10}, {From: 24, Percent: 15}}
	case 2:
		return pricing.Ladder{{From: 3, Price: unit - step}, {From: 10, Price: unit - 2*step}, {From: 20, Price: unit - 3*step}}
	case 3:
		return pricing.Ladder{{From: 10, Percent: 10}}
	}
	return nil
}

// PriceGroups are the seed's price groups: Independents, with 10% off one category and
// a fixed price and breaks on one product, assigned to no account (staff assign it in
// the back office).
func PriceGroups(c Catalogue, now time.Time) []pricing.Group {
	rules := pricing.Rules{Discounts: map[string]int{"category:604": 10}}
	// The fifth age balloon: the four before it have public breaks of their own.
	sku := fmt.Sprintf("%s%d-%05d", rangeCodes["wholesale_balloons"], breaksCategory, 5)
	if i := slices.IndexFunc(c.Products, func(p catalogue.Product) bool { return p.SKU == sku }); i >= 0 {
		unit := c.Products[i].UnitPrice
		key := "product:" + sku
		rules.Prices = map[string]int64{key: unit - max(5, unit/10/5*5)} // about 10% below the list price
		rules.Breaks = map[string]pricing.Ladder{key: {{From: 5, Percent: 5}, {From: 10, Percent: 10}}}
	}
	return []pricing.Group{{ID: "independents", Name: "Independents", Rules: rules, Version: 1, UpdatedAt: now}}
}

func describe(d catDef, fam family, style, subject string, pack int) string {
	return fmt.Sprintf("A %s %s design from our %s range. Sold in packs of %d. %s",
		strings.ToLower(style), subject, strings.ToLower(d.name), pack, fam.blurb)
}

// Coupons are the seed's discount codes for local use: two that work, one with a
// minimum spend, one expired and one not yet started.
func Coupons(now time.Time) []store.StoredCoupon {
	year := time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	c := func(id, desc, kind string, pct int, amount, minSpend int64, from, to time.Time) store.StoredCoupon {
		return store.StoredCoupon{Description: desc, Coupon: pricing.Coupon{ID: id, Kind: kind, Percent: pct, AmountPence: amount,
			MinSpendPence: minSpend, ValidFrom: from, ValidTo: to}}
	}
	return []store.StoredCoupon{
		c("TRADE10", "10% off goods", "percent", 10, 0, 0, year, year.AddDate(2, 0, 0)),
		c("WELCOME5", "£5 off orders of £50 or more", "fixed", 0, 500, 5000, year, year.AddDate(2, 0, 0)),
		c("BULK15", "15% off goods on orders of £500 or more", "percent", 15, 0, 50000, year, year.AddDate(2, 0, 0)),
		c("SUMMER20", "20% off (expired)", "percent", 20, 0, 0, year.AddDate(-1, 0, 0), year.AddDate(-1, 9, 0)),
		c("NEXTYEAR", "10% off from next year", "percent", 10, 0, 0, year.AddDate(1, 0, 0), year.AddDate(2, 0, 0)),
	}
}

// forwardCategory is the category whose first forwardProducts products the seed sells
// forward (Boxed Christmas Cards): next season's boxes, pre-ordered now for delivery in
// the autumn (docs/forward-orders.md). No other test buys them from stock.
const (
	forwardCategory = 201
	forwardProducts = 3
)

// MarkForward marks the seed's forward products in c, dated from now: pre-order open
// until the last day of the month six months on, delivery from the first day of the
// second month after the order-by date, 600 packs expected, no stock on hand.
func MarkForward(c Catalogue, now time.Time) {
	y, m, _ := now.Date()
	orderBy := time.Date(y, m+7, 0, 12, 0, 0, 0, time.UTC) // last day of the sixth month on
	from := time.Date(y, m+8, 1, 12, 0, 0, 0, time.UTC)    // first day of the second month after it
	n := 0
	for i := range c.Products {
		p := &c.Products[i]
		if p.CategoryID != forwardCategory || n == forwardProducts {
			continue
		}
		p.Stock = 0
		p.Forward = &catalogue.Forward{DeliveryFrom: from.Format(time.DateOnly), OrderBy: orderBy.Format(time.DateOnly), Expected: 600 * p.PackSize}
		n++
	}
}
