package config

import "testing"

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
