package config

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
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
	RegisteredAddress string `json:"registeredAddress"` // one line, commas between parts
	CompanyNumber     string `json:"companyNumber"`     // Companies House number, 8 characters
	VATNumber         string `json:"vatNumber"`         // UK VAT registration number: GB and 9 digits
}

// BankTransfer is the account pro-forma orders are paid into.
type BankTransfer struct {
	AccountName   string `json:"accountName"`
	SortCode      string `json:"sortCode"`      // 12-34-56
	AccountNumber string `json:"accountNumber"` // eight digits
}

var (
	sortCodePattern      = regexp.MustCompile(`^[0-9]{2}-[0-9]{2}-[0-9]{2}$`)
	accountNumberPattern = regexp.MustCompile(`^[0-9]{8}$`)
)

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
}

// Load parses the embedded shop.json and checks it.
func Load() (Shop, error) {
	var s Shop
	if err := json.Unmarshal(shopJSON, &s); err != nil {
		return Shop{}, fmt.Errorf("parse shop.json: %w", err)
	}
	switch {
	case s.MinimumOrderPence < 0 || s.FreeDeliveryThresholdPence < 0:
		return Shop{}, fmt.Errorf("shop.json: money values must not be negative")
	case len(s.DeliveryOptions) == 0:
		return Shop{}, fmt.Errorf("shop.json: no delivery options")
	case s.DefaultVATRate < 0 || s.DefaultVATRate > 100:
		return Shop{}, fmt.Errorf("shop.json: defaultVatRate %d out of range", s.DefaultVATRate)
	case s.BankTransfer.AccountName == "" || !sortCodePattern.MatchString(s.BankTransfer.SortCode) ||
		!accountNumberPattern.MatchString(s.BankTransfer.AccountNumber):
		return Shop{}, fmt.Errorf("shop.json: bankTransfer needs an accountName, a sortCode such as 12-34-56 and an eight-digit accountNumber")
	}
	for k, v := range s.DefaultDiscounts {
		if v < 0 || v > 100 {
			return Shop{}, fmt.Errorf("shop.json: discount %s is %d%%", k, v)
		}
	}
	for _, d := range s.DeliveryOptions {
		if d.ID == "" || d.ChargePence < 0 {
			return Shop{}, fmt.Errorf("shop.json: bad delivery option %+v", d)
		}
	}
	return s, nil
}
