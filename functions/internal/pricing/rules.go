package pricing

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// MaxTiers is the most quantity breaks one table may hold.
const MaxTiers = 6

// Tier is one quantity break: from From packs, a unit price (pence ex VAT) or a percent
// off the base price (step 1 of the rule in docs/pricing.md).
type Tier struct {
	From    int   `json:"from" dynamodbav:"from"`
	Price   int64 `json:"price,omitempty" dynamodbav:"price,omitempty"`
	Percent int   `json:"percent,omitempty" dynamodbav:"percent,omitempty"`
}

// Ladder is a table of quantity breaks, From strictly rising. Below its first break a
// line pays the base price.
type Ladder []Tier

// Rules is one layer of price rules, keyed "product:{SKU}", "category:{id}" or
// "range:{urlText}": fixed unit prices (product keys, price groups only), percent
// discounts and quantity breaks.
type Rules struct {
	Prices    map[string]int64  `json:"prices,omitempty"`
	Discounts map[string]int    `json:"discounts,omitempty"`
	Breaks    map[string]Ladder `json:"breaks,omitempty"`
}

// Rows is how many keys the rules set anything for: the rows of its CSV.
func (r Rules) Rows() int {
	keys := map[string]bool{}
	for k := range r.Prices {
		keys[k] = true
	}
	for k := range r.Discounts {
		keys[k] = true
	}
	for k := range r.Breaks {
		keys[k] = true
	}
	return len(keys)
}

// Group is a price group staff maintain: named rules shared by every account assigned
// to it.
type Group struct {
	ID        string
	Name      string
	Rules     Rules
	Version   int64
	UpdatedAt time.Time
}

// groupID is a price group's id: a slug.
var groupID = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$`)

// ValidGroupID reports whether s has a price group id's shape: independents.
func ValidGroupID(s string) bool { return groupID.MatchString(s) }

// Terms is everything that prices lines for one buyer: the shop's public rules, the
// buyer's price group (nil for none) and the account's own discounts (its dsc). A
// signed-out visitor's terms are the zero Terms: list prices and the products' own
// breaks, no discount.
type Terms struct {
	Shop  Rules
	Group *Group
	Own   map[string]int
	// GroupAge is how old the read of the group is (groups are cached per Lambda).
	GroupAge time.Duration
}

// ShopRules are the public rules of shop.json: defaultDiscounts and defaultBreaks.
func ShopRules(defaultDiscounts map[string]int, defaultBreaks map[string]Ladder) Rules {
	return Rules{Discounts: defaultDiscounts, Breaks: defaultBreaks}
}

// NewTerms makes a buyer's terms from the shop's rules, their group (nil for none) and
// their own discounts (dsc, a JSON object of key to percent, "" for none).
func NewTerms(shop Rules, group *Group, dsc string) (Terms, error) {
	own, err := parseOwn(dsc)
	if err != nil {
		return Terms{}, err
	}
	return Terms{Shop: shop, Group: group, Own: own}, nil
}

// keys are a line's rule keys, most specific first.
func keys(l Line) [3]string {
	return [3]string{"product:" + l.SKU, "category:" + strconv.Itoa(l.CategoryID), "range:" + l.RangeURLText}
}

// group is the terms' group rules (empty without a group).
func (t Terms) group() Rules {
	if t.Group == nil {
		return Rules{}
	}
	return t.Group.Rules
}

// discount is step 3's percent for a line and whether the group set it: the most
// specific key any layer sets, and at one key the account over the group over the shop.
func (t Terms) discount(l Line) (percent int, byGroup bool) {
	g := t.group()
	for _, k := range keys(l) {
		if v, ok := t.Own[k]; ok {
			return v, false
		}
		if v, ok := g.Discounts[k]; ok {
			return v, true
		}
		if v, ok := t.Shop.Discounts[k]; ok {
			return v, false
		}
	}
	return 0, false
}

// ladder is step 2's break table for a line and whether the group set it: the most
// specific key with a table, and at one key the group's over the public one (the
// product's own, or shop.json's for a category or range).
func (t Terms) ladder(l Line) (Ladder, bool) {
	g := t.group()
	for i, k := range keys(l) {
		if v, ok := g.Breaks[k]; ok && len(v) > 0 {
			return v, true
		}
		if i == 0 && len(l.Breaks) > 0 {
			return l.Breaks, false
		}
		if v, ok := t.Shop.Breaks[k]; ok && len(v) > 0 {
			return v, false
		}
	}
	return nil, false
}

// base is step 1: the group's fixed unit price for the product, else the list price.
func (t Terms) base(l Line) (price int64, byGroup bool) {
	if p, ok := t.group().Prices["product:"+l.SKU]; ok && p > 0 {
		return p, true
	}
	return l.UnitPrice, false
}

// reached is the tier of ladder a line of packs reaches (nil for none).
func (ld Ladder) reached(packs int) *Tier {
	var out *Tier
	for i := range ld {
		if ld[i].From <= packs {
			out = &ld[i]
		}
	}
	return out
}

// at is the price a tier makes of base: its unit price (never above the base) or the
// base less its percent.
func (tr Tier) at(base int64) int64 {
	if tr.Price > 0 {
		return min(base, tr.Price)
	}
	return base - RoundPercent(base, tr.Percent)
}

// Check says what is wrong with a ladder, as a sentence for staff, or "" when it is
// sound: breaks from 2 packs, rising, at most MaxTiers, each a unit price (when prices
// are allowed: product keys) or a percent from 1 to 99, each cheaper than the one
// before and than list (the list price; 0 when unknown, as for a category).
func (ld Ladder) Check(list int64, pricesAllowed bool) string {
	if len(ld) > MaxTiers {
		return fmt.Sprintf("At most %d breaks are allowed.", MaxTiers)
	}
	prevFrom, prevPrice, prevPct := 1, list, 0
	for _, tr := range ld {
		switch {
		case (tr.Price > 0) != (ld[0].Price > 0):
			return "A table's breaks are all unit prices or all percents off."
		case tr.From < 2:
			return "A break starts from 2 packs or more."
		case tr.From <= prevFrom && prevFrom > 1:
			return "Breaks must be in rising order of packs, each once."
		case tr.Price > 0 && tr.Percent != 0:
			return "A break is a unit price or a percent off, not both."
		case tr.Price > 0 && !pricesAllowed:
			return "A category or range break must be a percent off (a unit price is for one product)."
		case tr.Price <= 0 && (tr.Percent < 1 || tr.Percent > 99):
			return "A break needs a unit price above £0.00 or a percent off from 1 to 99."
		case tr.Price > 0 && prevPrice > 0 && tr.Price >= prevPrice:
			return "Each break's price must be lower than the one before it and than the list price."
		case tr.Price == 0 && tr.Percent <= prevPct:
			return "Each break's percent off must be higher than the one before it."
		}
		prevFrom = tr.From
		if tr.Price > 0 {
			prevPrice = tr.Price
		} else {
			prevPct = tr.Percent
			if list > 0 {
				prevPrice = list - RoundPercent(list, tr.Percent)
			}
		}
	}
	return ""
}
