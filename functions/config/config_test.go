package config

import (
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	t.Parallel()
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if s.MinimumOrderPence <= 0 || s.FreeDeliveryThresholdPence <= s.MinimumOrderPence || s.DefaultVATRate != 20 {
		t.Fatalf("unexpected constants: %+v", s)
	}
	if b := s.Business; b.TradingName == "" || b.LegalName == "" || b.RegisteredIn == "" || b.VATNumber == "" || b.CompanyNumber == "" {
		t.Fatalf("business identity missing: %+v", b)
	}
	if s.Contact.Email == "" || s.Contact.Phone == "" {
		t.Fatal("contact details missing")
	}
	if b := s.BankTransfer; b.AccountName == "" || len(b.SortCode) != 8 || len(b.AccountNumber) != 8 {
		t.Fatalf("bank details for pro-forma orders: %+v", b)
	}
}

// The rules across a public break table are the pricing rule's (pricing.Ladder.Check),
// which the schema cannot say: Go refuses such a shop.json with the rule's sentence.
func TestDefaultBreaksFollowThePricingRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, table, want string }{
		{"rising, more off each time", `[{"from":6,"percent":5},{"from":12,"percent":10}]`, ""},
		{"packs not rising", `[{"from":12,"percent":5},{"from":6,"percent":10}]`, "shop.json: defaultBreaks.category:603: Breaks must be in rising order of packs, each once."},
		{"not more off", `[{"from":6,"percent":10},{"from":12,"percent":10}]`, "shop.json: defaultBreaks.category:603: Each break's percent off must be higher than the one before it."},
		{"seven breaks", `[{"from":2,"percent":1},{"from":3,"percent":2},{"from":4,"percent":3},{"from":5,"percent":4},{"from":6,"percent":5},{"from":7,"percent":6},{"from":8,"percent":7}]`, "shop.json: defaultBreaks.category:603: At most 6 breaks are allowed."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := strings.Replace(string(shopJSON), `"defaultBreaks": {}`, `"defaultBreaks": {"category:603": `+tc.table+`}`, 1)
			s, err := parse([]byte(doc))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("want valid, got %v", err)
			case tc.want == "" && len(s.Breaks()["category:603"]) != 2:
				t.Fatalf("breaks %v", s.Breaks())
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
}
