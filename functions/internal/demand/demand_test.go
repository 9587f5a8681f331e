package demand

import (
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/forward"
	"github.com/tradeshop/functions/internal/receiving"
)

var card = catalogue.Product{SKU: "XM-1", Name: "=Robin card", PackSize: 6, RangeURLText: "christmas",
	Forward: &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: 600}}

func line(uid, order string, ordered, open, allocated, cancelled int, receipts ...string) forward.Line {
	return forward.Line{SKU: card.SKU, OrderID: order, UID: uid, Email: uid + "@example.com", PlacedAt: time.Unix(0, 0), PackSize: 6,
		Ordered: ordered, Open: open, Allocated: allocated, Cancelled: cancelled, Receipts: receipts}
}

// The sums by bucket and by account: backordered counts only the open units of lines a
// delivery has been applied to; an account's orders are counted once each.
func TestOf(t *testing.T) {
	t.Parallel()
	lines := []forward.Line{
		line("a", "F1", 60, 60, 0, 0),                 // on order
		line("b", "F2", 120, 24, 96, 0, "RCV-000001"), // backordered 24
		line("a", "F3", 30, 0, 24, 6, "RCV-000001"),   // allocated, part cancelled
		line("c", "F4", 12, 0, 0, 12),                 // cancelled
	}
	names := map[string]string{"a": "Acme Cards", "b": "Bee Gifts"}
	d := Of(card, lines, func(uid string) string { return names[uid] })
	if want := (Units{Ordered: 222, Open: 84, Allocated: 120, Backordered: 24, Cancelled: 18}); d.Units != want {
		t.Errorf("totals %+v, want %+v", d.Units, want)
	}
	if got := d.Units.Packs(6); got != (Units{Ordered: 37, Open: 14, Allocated: 20, Backordered: 4, Cancelled: 3}) {
		t.Errorf("packs %+v", got)
	}
	if len(d.Accounts) != 3 {
		t.Fatalf("accounts %+v", d.Accounts)
	}
	b, a, c := d.Accounts[0], d.Accounts[1], d.Accounts[2]
	if b.Company != "Bee Gifts" || b.Units.Backordered != 24 || b.Orders != 1 {
		t.Errorf("biggest first: %+v", b)
	}
	if a.Company != "Acme Cards" || a.Orders != 2 || a.Units != (Units{Ordered: 90, Open: 60, Allocated: 24, Cancelled: 6}) {
		t.Errorf("two orders of one account: %+v", a)
	}
	if c.Company != "c@example.com" {
		t.Errorf("an account without a business name: %+v", c)
	}
	for _, a := range d.Accounts {
		if a.Units.Open+a.Units.Allocated+a.Units.Cancelled != a.Units.Ordered {
			t.Errorf("%s's buckets do not add up: %+v", a.UID, a.Units)
		}
	}
}

// The CSV has a row per account and a total row per product, with formulas defused.
func TestCSV(t *testing.T) {
	t.Parallel()
	d := Of(card, []forward.Line{line("a", "F1", 60, 36, 24, 0, "RCV-000001")}, func(string) string { return "@Acme" })
	d.Received = 24
	doc, err := CSV(Report{SKU: card.SKU, Range: catalogue.Range{URLText: "christmas"}, Products: []Product{d}})
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(doc)), "\n")
	want := []string{
		strings.Join(csvHeader, ","),
		"christmas,XM-1,'=Robin card,6,2027-09-01,2027-06-30,600,24,a,'@Acme,a@example.com,1,10,60,36,4,24,6,36,0,0",
		"christmas,XM-1,'=Robin card,6,2027-09-01,2027-06-30,600,24,,Total,,1,10,60,36,4,24,6,36,0,0",
	}
	if len(rows) != len(want) {
		t.Fatalf("CSV:\n%s", doc)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d:\n got  %s\n want %s", i, rows[i], want[i])
		}
	}
}

// Only applied deliveries count as received: one recorded or being applied is not yet.
func TestReceived(t *testing.T) {
	t.Parallel()
	lines := func(units int) []receiving.Line {
		return []receiving.Line{{SKU: "XM-1", Units: units}, {SKU: "XM-2", Units: 12}}
	}
	rs := []receiving.Receipt{
		{ID: "RCV-000003", State: receiving.StateRecorded, Lines: lines(600)},
		{ID: "RCV-000002", State: receiving.StateApplying, Lines: lines(300)},
		{ID: "RCV-000001", State: receiving.StateApplied, Lines: lines(120)},
		{ID: "RCV-000000", State: receiving.StateApplied, Lines: lines(6)},
	}
	if got := Received(rs, "XM-1"); got != 126 {
		t.Errorf("received %d, want 126", got)
	}
	if got := Received(rs, "XM-9"); got != 0 {
		t.Errorf("received of a SKU no delivery held: %d", got)
	}
}
