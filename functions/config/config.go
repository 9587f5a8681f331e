package config

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
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

// Shop is shop.json.
type Shop struct {
	MinimumOrderPence          int64            `json:"minimumOrderPence"`
	FreeDeliveryThresholdPence int64            `json:"freeDeliveryThresholdPence"`
	DeliveryOptions            []DeliveryOption `json:"deliveryOptions"`
	DefaultVATRate             int              `json:"defaultVatRate"`
	// DefaultDiscounts are the public discounts, percent off by key: "range:{urlText}",
	// "category:{id}" or "product:{sku}". An account's own dsc is merged over them.
	DefaultDiscounts map[string]int `json:"defaultDiscounts"`
	Business         Business       `json:"business"`
	Contact          Contact        `json:"contact"`
	BankTransfer     BankTransfer   `json:"bankTransfer"`
	Operations       Operations     `json:"operations"`
	Credit           Credit         `json:"credit"`
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
