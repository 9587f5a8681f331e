package apicalls

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/callcount"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// PricingLines is the basket the pricing case prices: the most lines a basket holds.
const PricingLines = basket.MaxLines

// pricingPacks is each line's quantity in packs: past both breaks of the pricing group's
// category tables, so every line is priced at a break.
const pricingPacks = 12

// pricingRuns is how many times each pricing request is timed; the row gives the median.
const pricingRuns = 5

// pricingGroup is the price group of the pricing case (issue 37, item 5): a break table
// on every category of the bench catalogue, a discount on every other category and a
// fixed price on every tenth product of the basket: it prices every line whose product
// has no breaks of its own, and those in the categories it discounts.
const pricingGroup = "bench-pricing"

// PricingRow is one pricing request on the PricingLines-line basket: its calls, and the
// median time of pricingRuns requests (the handlers in-process on DynamoDB Local).
type PricingRow struct {
	Endpoint string
	What     string
	Buyer    string // "no price group", "price group, warm cache" or ColdCache
	Lines    int
	// GroupLines is how many lines of the basket answer say the group priced them
	// (price_group): 0 without a group, or while groups do not reach the basket.
	GroupLines int
	Count      callcount.Count
	Median     time.Duration
}

// Pricing prices a PricingLines-line basket, every line at a quantity break, for a buyer
// without a price group and for one in the pricing group once the group cache is warm
// (a request first, not counted): the basket page, the header's basket and the
// checkout's first step; then the basket page again with the group cache dropped before
// each request (ColdCache), as a Lambda's first request finds it. The group is written
// as the seed writes its groups, and each buyer's pg straight in the table (the bench's
// buyers start in the bench's own group: the buyer without one has it removed).
func (b *Bench) Pricing() ([]PricingRow, error) {
	group, err := b.putBenchGroup()
	if err != nil {
		return nil, err
	}
	var rows []PricingRow
	for _, inGroup := range []bool{false, true} {
		who := "no price group"
		if inGroup {
			who = "price group, warm cache"
		}
		u, err := b.newBuyer("Pricing " + who)
		if err != nil {
			return rows, err
		}
		// Every bench buyer starts in the bench's own group (newBuyer): this one is put in
		// the pricing group, or in none.
		update := &dynamodb.UpdateItemInput{TableName: aws.String(b.st.TableName()),
			Key:              map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "USER#" + u.UID}, "sk": &types.AttributeValueMemberS{Value: "PROFILE"}},
			UpdateExpression: aws.String("REMOVE pg")}
		if inGroup {
			update.UpdateExpression = aws.String("SET pg = :g")
			update.ExpressionAttributeValues = map[string]types.AttributeValue{":g": &types.AttributeValueMemberS{Value: group}}
		}
		if _, err := b.db.UpdateItem(b.ctx, update); err != nil {
			return rows, err
		}
		adds := make([]basket.Add, PricingLines)
		for i, p := range b.products[:PricingLines] {
			adds[i] = basket.Add{SKU: p.SKU, Quantity: pricingUnits(p), Limit: basket.LineLimit(p, time.Now())}
		}
		for chunk := range slices.Chunk(adds, 50) {
			if err := b.st.AddLines(b.ctx, u.UID, chunk, time.Now()); err != nil {
				return rows, err
			}
		}
		requests := []struct{ endpoint, path, what string }{
			{"basket", "/api/basket", "the basket page"},
			{"shoppingCartSmall", "/api/shoppingCartSmall", "the header's basket"},
			{"checkout", "/api/checkout", "the checkout's first step"},
		}
		// Warm the group cache (and the handlers) with a request not counted.
		a := b.post("/api/basket", u.tok)
		var priced struct {
			Lines []struct {
				PriceGroup *string `json:"price_group"`
			} `json:"lines"`
		}
		if !a.ok() || a.json(&priced) != nil {
			return rows, fmt.Errorf("basket: %d %s", a.code, a.body)
		}
		groupLines := 0
		for _, l := range priced.Lines {
			if l.PriceGroup != nil {
				groupLines++
			}
		}
		for _, r := range requests {
			var times []time.Duration
			var row Row
			for range pricingRuns {
				start := time.Now()
				got, _, err := b.count(r.endpoint, "POST "+r.path, r.what, func() answer { return b.post(r.path, u.tok) })
				if err != nil {
					return rows, err
				}
				times = append(times, time.Since(start))
				row = got
			}
			slices.Sort(times)
			rows = append(rows, PricingRow{Endpoint: r.endpoint, What: r.what, Buyer: who, Lines: PricingLines, GroupLines: groupLines, Count: row.Count,
				Median: times[len(times)/2]})
		}
		if inGroup {
			// The first request of a Lambda (or the first after the cache's minute) reads
			// the groups: the basket page with the cache dropped before each request.
			var times []time.Duration
			var row Row
			for range pricingRuns {
				b.st.ForgetPriceGroups()
				start := time.Now()
				got, _, err := b.count("basket", "POST /api/basket", "the basket page", func() answer { return b.post("/api/basket", u.tok) })
				if err != nil {
					return rows, err
				}
				times = append(times, time.Since(start))
				row = got
			}
			slices.Sort(times)
			rows = append(rows, PricingRow{Endpoint: "basket", What: "the basket page", Buyer: ColdCache, Lines: PricingLines, GroupLines: groupLines,
				Count: row.Count, Median: times[len(times)/2]})
		}
	}
	return rows, nil
}

// ColdCache is the buyer of the pricing row whose group cache is dropped before each request.
const ColdCache = "price group, cold cache"

// pricingUnits is pricingPacks packs of p, within the line maximum.
func pricingUnits(p catalogue.Product) int {
	return min(pricingPacks, pricing.MaxLineUnits/p.PackSize) * p.PackSize
}

// putBenchGroup writes the pricing group as the seed writes its groups and answers its id.
func (b *Bench) putBenchGroup() (string, error) {
	r := pricing.Rules{Prices: map[string]int64{}, Discounts: map[string]int{}, Breaks: map[string]pricing.Ladder{}}
	seen := map[int]bool{}
	for i, p := range b.products[:PricingLines] {
		if !seen[p.CategoryID] {
			seen[p.CategoryID] = true
			key := "category:" + strconv.Itoa(p.CategoryID)
			r.Breaks[key] = pricing.Ladder{{From: 3, Percent: 5}, {From: 10, Percent: 10}}
			if len(seen)%2 == 0 {
				r.Discounts[key] = 3
			}
		}
		if i%10 == 0 && p.UnitPrice > 1 {
			r.Prices["product:"+p.SKU] = p.UnitPrice * 9 / 10
		}
	}
	g := pricing.Group{ID: pricingGroup, Name: "Bench Pricing", Rules: r, Version: 1, UpdatedAt: time.Now()}
	if err := b.st.PutSeedPriceGroups(b.ctx, []pricing.Group{g}); err != nil {
		return "", fmt.Errorf("put the bench price group: %w", err)
	}
	// The bench's clock stands still, so the cache Open warmed would never see the new
	// group: drop it; the warm-up request below reads the groups again.
	b.st.ForgetPriceGroups()
	return pricingGroup, nil
}
