package config

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/tradeshop/functions/internal/pricing"
)

//go:embed shop.json
var shopJSON []byte

// DeliveryOption is one way an order can be delivered, with its charge ex VAT.
// FreeOverThreshold waives the charge when the goods (less coupon) reach the shop's
// free delivery threshold.
type DeliveryOption struct {
	ID                string `json:"id"`
	Name              string `json:"name"`
	ChargePence       int64  `json:"chargePence"`
	FreeOverThreshold bool   `json:"freeOverThreshold"`
}

// Contact is how buyers reach the shop.
type Contact struct {
	Phone   string `json:"phone"`
	Email   string `json:"email"`
	Address string `json:"address"`
	Hours   string `json:"hours"`
}

// Business is who the shop is in law: the supplier on every invoice. Placeholder values
// (the example ones in shop.json) are refused by a staging or production build and release.
type Business struct {
	TradingName       string `json:"tradingName"`       // the name buyers see: "TradeShop Wholesale"
	LegalName         string `json:"legalName"`         // the company's registered name
	RegisteredIn      string `json:"registeredIn"`      // England and Wales, Wales, Scotland or Northern Ireland
	RegisteredAddress string `json:"registeredAddress"` // one line, commas between parts
	CompanyNumber     string `json:"companyNumber"`     // Companies House number, 8 characters
	VATNumber         string `json:"vatNumber"`         // UK VAT registration number: GB and 9 digits (12 for a branch)
}

// BankTransfer is the account pro-forma orders are paid into.
type BankTransfer struct {
	AccountName   string `json:"accountName"`
	SortCode      string `json:"sortCode"`      // 12-34-56
	AccountNumber string `json:"accountNumber"` // eight digits
}

// Operations is who hears about trouble in the running shop. The CDK app subscribes
// AlarmEmail to the stage's alarm topics; the functions do not read it. Its example
// value is refused for a staging or production deploy, build and release.
type Operations struct {
	AlarmEmail string `json:"alarm_email"`
}

// Credit is how the shop holds trade accounts to their terms. HoldGraceDays is how many
// days past its due date an invoice on account may still owe before the account is on
// credit hold: no new order on account until it is paid, credited or staff lift the hold
// (docs/back-office.md "Credit hold").
type Credit struct {
	HoldGraceDays int `json:"hold_grace_days"`
}

// BreakTier is one public quantity break of shop.json: from From packs, Percent off.
type BreakTier struct {
	From    int `json:"from"`
	Percent int `json:"percent"`
}

// Breaks are DefaultBreaks as the pricing rule takes them (pricing.ShopRules).
func (s Shop) Breaks() map[string]pricing.Ladder {
	if len(s.DefaultBreaks) == 0 {
		return nil
	}
	out := make(map[string]pricing.Ladder, len(s.DefaultBreaks))
	for k, tiers := range s.DefaultBreaks {
		ld := make(pricing.Ladder, len(tiers))
		for i, t := range tiers {
			ld[i] = pricing.Tier{From: t.From, Percent: t.Percent}
		}
		out[k] = ld
	}
	return out
}

// Shop is shop.json.
type Shop struct {
	MinimumOrderPence          int64            `json:"minimumOrderPence"`
	FreeDeliveryThresholdPence int64            `json:"freeDeliveryThresholdPence"`
	DeliveryOptions            []DeliveryOption `json:"deliveryOptions"`
	DefaultVATRate             int              `json:"defaultVatRate"`
	// DefaultDiscounts are the public discounts, percent off by key: "range:{urlText}",
	// "category:{id}" or "product:{sku}". An account's own dsc is merged over them.
	DefaultDiscounts map[string]int `json:"defaultDiscounts"`
	// DefaultBreaks are the public quantity break tables of whole categories and ranges,
	// by key "range:{urlText}" or "category:{id}" (a product's own table is the
	// catalogue's breaks column): percentages off from a number of packs. Empty today.
	DefaultBreaks map[string][]BreakTier `json:"defaultBreaks"`
	Business      Business               `json:"business"`
	Contact       Contact                `json:"contact"`
	BankTransfer  BankTransfer           `json:"bankTransfer"`
	Operations    Operations             `json:"operations"`
	Credit        Credit                 `json:"credit"`
	// ForwardAllocation is how a delivery of a forward product is shared among its open
	// forward orders (docs/forward-orders.md "Receiving and allocation"): "pro-rata" (each
	// order the same share of what it asked for, in whole packs) or "first-come" (oldest
	// order filled first).
	ForwardAllocation string `json:"forwardAllocation"`
}

// Load parses the embedded shop.json after checking it against shop-schema.json
// (Validate): a key the schema does not name, a missing one, a negative amount or a
// malformed VAT number is an error, with the same message the site build gives.
func Load() (Shop, error) { return parse(shopJSON) }

func parse(doc []byte) (Shop, error) {
	if err := Validate(doc); err != nil {
		return Shop{}, err
	}
	// Validate refused every key the schema does not name (validate_test.go checks that
	// the schema names exactly this struct's fields). The comments go, then a strict
	// decode: a field the schema allowed but the struct lacks would still fail here.
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return Shop{}, fmt.Errorf("parse shop.json: %w", err)
	}
	stripped, err := json.Marshal(withoutComments(v))
	if err != nil {
		return Shop{}, fmt.Errorf("parse shop.json: %w", err)
	}
	d := json.NewDecoder(bytes.NewReader(stripped))
	d.DisallowUnknownFields()
	var s Shop
	if err := d.Decode(&s); err != nil {
		return Shop{}, fmt.Errorf("parse shop.json: %w", err)
	}
	// The schema holds each break's shape; the rules across a table (rising, at most six,
	// each cheaper than the one before) are the pricing rule's own.
	breaks := s.Breaks()
	for _, k := range sortedKeys(breaks) {
		if problem := breaks[k].Check(0, false); problem != "" {
			return Shop{}, fmt.Errorf("shop.json: defaultBreaks.%s: %s", k, problem)
		}
	}
	return s, nil
}

// withoutComments drops the "$comment" keys at every level.
func withoutComments(v any) any {
	switch c := v.(type) {
	case map[string]any:
		delete(c, commentKey)
		for k, e := range c {
			c[k] = withoutComments(e)
		}
	case []any:
		for i, e := range c {
			c[i] = withoutComments(e)
		}
	}
	return v
}
