package basket

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/account"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/pricing"
)

// groupsRead is a GroupReader that counts its reads.
type groupsRead struct {
	groups map[string]pricing.Group
	age    time.Duration
	err    error
	reads  int
}

func (g *groupsRead) PriceGroups(context.Context) (map[string]pricing.Group, time.Duration, error) {
	g.reads++
	return g.groups, g.age, g.err
}

// LoadTerms reads the groups only for an account in one, takes the account's group with
// the read's age, prices an account whose group is gone as in none, and passes a failed
// read on.
func TestLoadTermsReadsTheGroupsOnlyForAnAccountInOne(t *testing.T) {
	t.Parallel()
	indep := pricing.Group{ID: "independents", Name: "Independents", Rules: pricing.Rules{Discounts: map[string]int{"category:101": 10}}}
	shop := config.Shop{DefaultDiscounts: map[string]int{"range:wholesale-christmas": 5}}
	failed := errors.New("throttled")
	for _, tc := range []struct {
		name      string
		acct      account.Account
		err       error
		wantReads int
		wantGroup string
		wantAge   time.Duration
		wantErr   error
	}{
		{name: "no group", acct: account.Account{DSC: `{"product:GC101-00001":3}`}, wantReads: 0},
		{name: "in a group", acct: account.Account{PriceGroup: "independents"}, wantReads: 1, wantGroup: "independents", wantAge: 42 * time.Second},
		{name: "a group that is gone", acct: account.Account{PriceGroup: "multiples"}, wantReads: 1},
		{name: "the read fails", acct: account.Account{PriceGroup: "independents"}, err: failed, wantReads: 1, wantErr: failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &groupsRead{groups: map[string]pricing.Group{"independents": indep}, age: 42 * time.Second, err: tc.err}
			terms, err := LoadTerms(context.Background(), r, shop, tc.acct)
			if !errors.Is(err, tc.wantErr) || r.reads != tc.wantReads {
				t.Fatalf("err %v after %d reads, want %v after %d", err, r.reads, tc.wantErr, tc.wantReads)
			}
			if err != nil {
				return
			}
			var group string
			if terms.Group != nil {
				group = terms.Group.ID
			}
			if group != tc.wantGroup || terms.GroupAge != tc.wantAge || terms.Shop.Discounts["range:wholesale-christmas"] != 5 {
				t.Errorf("terms %+v, want group %q aged %v", terms, tc.wantGroup, tc.wantAge)
			}
		})
	}
}

// A basket priced for a buyer in a group carries the terms it was priced with, and its
// lines say which the group priced.
func TestPriceCarriesTheTermsAndTheGroupOfEachLine(t *testing.T) {
	t.Parallel()
	group := &pricing.Group{ID: "independents", Name: "Independents", Rules: pricing.Rules{Prices: map[string]int64{"product:GC101-00001": 80}}}
	terms := pricing.Terms{Group: group, GroupAge: time.Second}
	cards := catalogue.Product{SKU: "GC101-00001", Name: "Card", UnitPrice: 95, VATRate: 20, PackSize: 6, Stock: 600, CategoryID: 101, RangeURLText: "wholesale_greeting_cards"}
	tags := catalogue.Product{SKU: "GT101-00001", Name: "Tag", UnitPrice: 40, VATRate: 20, PackSize: 6, Stock: 600, CategoryID: 102, RangeURLText: "wholesale_greeting_cards"}
	b := Basket{Lines: []Line{{SKU: cards.SKU, Quantity: 12, AddedAt: time.Unix(2, 0)}, {SKU: tags.SKU, Quantity: 6, AddedAt: time.Unix(1, 0)}}}
	p := Price(b, map[string]catalogue.Product{cards.SKU: cards, tags.SKU: tags}, terms, nil, config.Shop{}, time.Unix(3, 0))
	if p.Terms.Group != group || p.Terms.GroupAge != time.Second || len(p.Lines) != 2 {
		t.Fatalf("priced %+v", p)
	}
	if l := p.Lines[0]; l.Group != "independents" || l.GroupName != "Independents" || l.BasePrice != 80 || l.NetAmount != 12*80 {
		t.Errorf("the group's line: %+v", l.PricedLine)
	}
	if l := p.Lines[1]; l.Group != "" || l.BasePrice != 40 || l.NetAmount != 6*40 {
		t.Errorf("a line the group does not price: %+v", l.PricedLine)
	}
}

// BenchmarkPrice500LinesWithBreaksAndAGroup is the pricing of a full basket (500 lines)
// for a buyer in a group, a third of the products with breaks: the rule's own time,
// without the store (docs/PERFORMANCE.md "Price groups and breaks").
func BenchmarkPrice500LinesWithBreaksAndAGroup(b *testing.B) {
	group := &pricing.Group{ID: "independents", Name: "Independents", Rules: pricing.Rules{Prices: map[string]int64{}, Discounts: map[string]int{}}}
	products := map[string]catalogue.Product{}
	var bk Basket
	for i := range MaxLines {
		p := catalogue.Product{SKU: fmt.Sprintf("GC%03d-%05d", i%62, i), Name: "Card", UnitPrice: int64(50 + i%200), VATRate: 20, PackSize: 6,
			Stock: 6000, CategoryID: i % 62, RangeURLText: "wholesale_greeting_cards"}
		if i%3 == 0 {
			p.Breaks = pricing.Ladder{{From: 2, Percent: 5}, {From: 6, Percent: 10}}
		}
		if i%5 == 0 {
			group.Rules.Prices["product:"+p.SKU] = p.UnitPrice - 1
		}
		group.Rules.Discounts[fmt.Sprintf("category:%d", i%62)] = 4
		products[p.SKU] = p
		bk.Lines = append(bk.Lines, Line{SKU: p.SKU, Quantity: 6 * (1 + i%4), AddedAt: time.Unix(int64(i), 0)})
	}
	terms := pricing.Terms{Group: group}
	b.ResetTimer()
	for range b.N {
		Price(bk, products, terms, nil, config.Shop{}, time.Unix(1000, 0))
	}
}
