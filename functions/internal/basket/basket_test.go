package basket

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
)

func TestAvailabilityOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stock, pack int
		want        Availability
	}{
		{0, 6, Availability{Status: OutOfStock}},
		{5, 6, Availability{Status: OutOfStock}}, // less than one pack cannot be bought
		{-3, 6, Availability{Status: OutOfStock}},
		{6, 6, Availability{Status: LowStock, PacksLeft: 1}},
		{60, 6, Availability{Status: LowStock, PacksLeft: 10}},
		{61, 6, Availability{Status: LowStock, PacksLeft: 10}},
		{66, 6, Availability{Status: InStock, PacksLeft: 11}},
		{10, 0, Availability{Status: OutOfStock}},
	} {
		if got := AvailabilityOf(tc.stock, tc.pack); got != tc.want {
			t.Errorf("AvailabilityOf(%d, %d) = %+v, want %+v", tc.stock, tc.pack, got, tc.want)
		}
	}
}

// spring is a day of the forward-ordering season: 15 March 2027, London.
var spring = time.Date(2027, 3, 15, 12, 0, 0, 0, time.UTC)

// forwardCard is a forward product with stock units on hand whose pre-order closes on by.
func forwardCard(stock int, by string) catalogue.Product {
	return catalogue.Product{SKU: "XM101-00001", Name: "Xmas", PackSize: 6, Stock: stock,
		Forward: &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: by}}
}

func TestForwardLinesHaveNoStockLimitUntilTheOrderByDate(t *testing.T) {
	t.Parallel()
	open, closed := forwardCard(0, "2027-03-15"), forwardCard(60, "2027-03-14")
	if got := LineLimit(open, spring); got != pricing.MaxLineUnits {
		t.Errorf("open: limit %d, want %d", got, pricing.MaxLineUnits)
	}
	if got := AvailabilityAt(open, spring); got.Status != PreOrder {
		t.Errorf("open: %+v, want pre-order", got)
	}
	if got := LineLimit(closed, spring); got != 60 {
		t.Errorf("closed: limit %d, want the 60 units in stock", got)
	}
	if got := AvailabilityAt(closed, spring); got.Status != LowStock {
		t.Errorf("closed: %+v, want its stock's availability", got)
	}
	// London's date decides: 23:30 UTC on 15 March is still 15 March in London (GMT),
	// and 23:30 UTC on 14 June is 15 June in London (BST).
	june := forwardCard(0, "2027-06-14")
	if june.PreOrderOpen(time.Date(2027, 6, 14, 23, 30, 0, 0, time.UTC)) {
		t.Error("23:30 UTC on 14 June is 15 June in London: pre-order should be closed")
	}
}

func TestLineLimitIsWholePacksInStockWithinTheLineMaximum(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stock, pack, want int
	}{
		{100, 6, 96},
		{5, 6, 0},
		{1_000_000, 6, pricing.MaxLineUnits},
		{0, 12, 0},
	} {
		if got := LineLimit(catalogue.Product{Stock: tc.stock, PackSize: tc.pack}, spring); got != tc.want {
			t.Errorf("stock %d pack %d: %d, want %d", tc.stock, tc.pack, got, tc.want)
		}
	}
}

func TestCheckBuyable(t *testing.T) {
	t.Parallel()
	p := catalogue.Product{SKU: "GC101-00001", Name: "Robin card", PackSize: 6, Stock: 20}
	var conflict *shoperr.ConflictError
	var missing *shoperr.NotFoundError
	var field *shoperr.FieldError
	for _, tc := range []struct {
		name     string
		p        catalogue.Product
		found    bool
		quantity int
		is       any
		msg      string
	}{
		{"unknown SKU", catalogue.Product{}, false, 6, &missing, "There is no product with SKU GC101-00001."},
		{"out of stock", catalogue.Product{Name: "Robin card", PackSize: 6, Stock: 4}, true, 6, &conflict, "Robin card is out of stock."},
		{"not whole packs", p, true, 7, &field, "The quantity must be a whole number of packs of 6."},
		{"more than the whole packs in stock", p, true, 24, &conflict, "Only 3 packs of Robin card (18 units) are in stock."},
		{"all the whole packs in stock", p, true, 18, nil, ""},
		{"no status (written before statuses) is active", withStatus(p, ""), true, 18, nil, ""},
		{"active", withStatus(p, catalogue.StatusActive), true, 18, nil, ""},
		{"discontinued", withStatus(p, catalogue.StatusDiscontinued), true, 6, &conflict, "Robin card is no longer available."},
		{"discontinued and out of stock", catalogue.Product{Name: "Robin card", PackSize: 6, Status: catalogue.StatusDiscontinued}, true, 6, &conflict, "Robin card is no longer available."},
		{"discontinued, whatever the quantity", withStatus(p, catalogue.StatusDiscontinued), true, 7, &conflict, "Robin card is no longer available."},
	} {
		err := CheckBuyable(tc.p, tc.found, "GC101-00001", tc.quantity, spring)
		if tc.is == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !errors.As(err, tc.is) || err.Error() != tc.msg {
			t.Errorf("%s: %T %v, want %q", tc.name, err, err, tc.msg)
		}
	}
}

func withStatus(p catalogue.Product, status string) catalogue.Product {
	p.Status = status
	return p
}

// TestPriceDropsDiscontinuedLines: a line whose product is discontinued is dropped as one
// whose product left the catalogue is: not listed, priced, counted or short.
func TestPriceDropsDiscontinuedLines(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	products := map[string]catalogue.Product{
		"GC101-00001": {SKU: "GC101-00001", Name: "A", PackSize: 6, UnitPrice: 100, VATRate: 20, Stock: 600},
		"GC101-00002": {SKU: "GC101-00002", Name: "B", PackSize: 12, UnitPrice: 50, VATRate: 20, Stock: 0, Status: catalogue.StatusDiscontinued},
		"GC101-00003": {SKU: "GC101-00003", Name: "C", PackSize: 6, UnitPrice: 70, VATRate: 20, Stock: 600, Status: catalogue.StatusActive},
	}
	b := Basket{Version: 3, Lines: []Line{
		{SKU: "GC101-00001", Quantity: 12, AddedAt: now.Add(-time.Hour)},
		{SKU: "GC101-00002", Quantity: 24, AddedAt: now}, // discontinued, and short besides
		{SKU: "GC101-00003", Quantity: 6, AddedAt: now.Add(-time.Minute)},
	}}
	shop := config.Shop{MinimumOrderPence: 10000, FreeDeliveryThresholdPence: 30000}
	p := Price(b, products, pricing.Terms{}, nil, shop, now)
	if len(p.Lines) != 2 || p.Lines[0].SKU != "GC101-00003" || p.Lines[1].SKU != "GC101-00001" {
		t.Fatalf("lines: %+v", p.Lines)
	}
	if len(p.ShortLines()) != 0 {
		t.Fatalf("short lines: %+v", p.ShortLines())
	}
	if p.GoodsExVAT != 12*100+6*70 || p.BelowMinimumBy != 10000-1620 || len(p.Basket.Lines) != 3 {
		t.Fatalf("totals: goods %d, below minimum by %d; basket lines %d", p.GoodsExVAT, p.BelowMinimumBy, len(p.Basket.Lines))
	}
}

func TestPriceFlagsShortLinesAndKeepsNewestFirst(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	products := map[string]catalogue.Product{
		"GC101-00001": {SKU: "GC101-00001", Name: "A", PackSize: 6, UnitPrice: 100, VATRate: 20, Stock: 12},
		"GC101-00002": {SKU: "GC101-00002", Name: "B", PackSize: 12, UnitPrice: 50, VATRate: 0, Stock: 500},
	}
	b := Basket{Version: 7, Lines: []Line{
		{SKU: "GC101-00001", Quantity: 18, AddedAt: now.Add(-time.Hour)},
		{SKU: "GC101-00002", Quantity: 24, AddedAt: now},
		{SKU: "GC999-00009", Quantity: 6, AddedAt: now}, // left the catalogue
	}}
	shop := config.Shop{MinimumOrderPence: 10000, FreeDeliveryThresholdPence: 30000}
	p := Price(b, products, pricing.Terms{}, nil, shop, now)
	if len(p.Lines) != 2 || p.Lines[0].SKU != "GC101-00002" || p.Lines[1].SKU != "GC101-00001" {
		t.Fatalf("lines: %+v", p.Lines)
	}
	if p.Lines[0].Short || !p.Lines[1].Short {
		t.Fatalf("short flags: %v %v", p.Lines[0].Short, p.Lines[1].Short)
	}
	if len(p.ShortLines()) != 1 || p.Lines[1].Availability != (Availability{Status: LowStock, PacksLeft: 2}) {
		t.Fatalf("short lines %+v, availability %+v", p.ShortLines(), p.Lines[1].Availability)
	}
	if p.GoodsExVAT != 18*100+24*50 || p.BelowMinimumBy != 10000-3000 || p.FreeDeliveryIn != 30000-3000 || p.Basket.Version != 7 {
		t.Fatalf("totals: %+v", p)
	}
}

func TestJustOrdered(t *testing.T) {
	t.Parallel()
	now := time.Now()
	emptied := Basket{LastOrderID: "TS-100001", LastOrderAt: now.Add(-time.Minute)}
	if id, ok := emptied.JustOrdered(now); !ok || id != "TS-100001" {
		t.Fatal("an empty basket just ordered should name its order")
	}
	if _, ok := emptied.JustOrdered(now.Add(JustOrderedWithin)); ok {
		t.Fatal("an old order is not 'just' ordered")
	}
	refilled := emptied
	refilled.Lines = []Line{{SKU: "GC101-00001", Quantity: 6}}
	if _, ok := refilled.JustOrdered(now); ok {
		t.Fatal("a basket filled again is not 'just ordered'")
	}
}

func TestUsableAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c    pricing.Coupon
		want bool
	}{
		{pricing.Coupon{}, true},
		{pricing.Coupon{UsageLimit: 1}, false},
		{pricing.Coupon{UsageLimit: 5, Used: 3}, true},
		{pricing.Coupon{UsageLimit: 5, Used: 4}, false},
		{pricing.Coupon{PerAccountLimit: 1}, false},
		{pricing.Coupon{PerAccountLimit: 3, AccountUses: 1}, true},
		{pricing.Coupon{PerAccountLimit: 3, AccountUses: 2}, false},
	} {
		if got := tc.c.UsableAgain(); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.c, got, tc.want)
		}
	}
}

func TestCheckLine(t *testing.T) {
	p := catalogue.Product{SKU: "GC101-00001", Name: "Card", PackSize: 6, Stock: 60}
	big := catalogue.Product{SKU: "GC101-00002", Name: "Big", PackSize: 6, Stock: 100_000}
	for _, tc := range []struct {
		name              string
		p                 catalogue.Product
		found             bool
		quantity, held    int
		code              shoperr.ProblemCode
		nearest           []int
		available         int
		messageContaining string
	}{
		{"fine", p, true, 12, 0, "", nil, 0, ""},
		{"look-up only", p, true, 0, 0, "", nil, 0, ""},
		{"unknown", p, false, 6, 0, shoperr.ProblemUnknown, nil, 0, "There is no product with SKU GC101-00001."},
		{"not whole packs", p, true, 10, 0, shoperr.ProblemPacks, []int{6, 12}, 0, "packs of 6"},
		{"under a pack", p, true, 4, 0, shoperr.ProblemPacks, []int{6}, 0, ""},
		{"short", p, true, 66, 0, shoperr.ProblemShort, nil, 60, "Only 10 packs of Card (60 units) are in stock"},
		{"short with the basket's", p, true, 24, 48, shoperr.ProblemShort, nil, 12, "your basket already holds 8 packs"},
		{"over the line's most", big, true, 600, pricing.MaxLineUnits - 24, shoperr.ProblemOverLimit, nil, 18, "holds at most 1666 packs"},
		{"out of stock", catalogue.Product{Name: "Gone", PackSize: 6, Stock: 5}, true, 6, 0, shoperr.ProblemOutOfStock, nil, 0, "Gone is out of stock"},
		{"forward: no stock limit while pre-order is open", forwardCard(0, "2027-06-30"), true, 600, 0, "", nil, 0, ""},
		{"forward: the line maximum still holds", forwardCard(0, "2027-06-30"), true, 600, pricing.MaxLineUnits - 24, shoperr.ProblemOverLimit, nil, 18, "holds at most"},
		{"forward: on the order-by date it is still open", forwardCard(0, "2027-03-15"), true, 600, 0, "", nil, 0, ""},
		{"forward: after the order-by date it sells from stock", forwardCard(5, "2027-03-14"), true, 6, 0, shoperr.ProblemOutOfStock, nil, 0, "Xmas is out of stock"},
	} {
		got := CheckLine(tc.p, tc.found, tc.p.SKU, tc.quantity, tc.held, spring)
		switch {
		case tc.code == "" && got != nil:
			t.Errorf("%s: %+v", tc.name, *got)
		case tc.code == "":
		case got == nil || got.Code != tc.code || !slices.Equal(got.Nearest, tc.nearest) || got.Available != tc.available ||
			!strings.Contains(got.Msg, tc.messageContaining):
			t.Errorf("%s: %+v, want %s %v %d %q", tc.name, got, tc.code, tc.nearest, tc.available, tc.messageContaining)
		}
	}
}
