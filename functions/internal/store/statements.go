package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/statements"
)

var _ statements.Store = (*Store)(nil)

// statementAccount is profile p as a statement names it: its billing details as the
// buyer's block, or its business name without them; its business is the billing
// company where there is one, as the exports name it.
func statementAccount(p Profile) statements.Account {
	a := statements.Account{UID: p.UID, Business: p.Business, Email: p.Email, OnAccount: p.ApprovedForCredit}
	if b := p.Billing; b != nil {
		if b.Company != "" {
			a.Business = b.Company
		}
		addr := b.Address.Line1
		if b.Address.Line2 != "" {
			addr += ", " + b.Address.Line2
		}
		a.Buyer = []string{b.Company, b.Contact, addr + ", " + b.Address.Town + ", " + b.Address.Postcode}
		if b.VATNumber != "" {
			a.Buyer = append(a.Buyer, "VAT registration number "+b.VATNumber)
		}
	}
	return a
}

// StatementAccount reads account uid as a statement names it; ErrNotFound when there is none.
func (s *Store) StatementAccount(ctx context.Context, uid string) (statements.Account, error) {
	p, err := s.Profile(ctx, uid)
	if err != nil {
		return statements.Account{}, err
	}
	return statementAccount(p), nil
}

// statementAccountsPage is how many accounts one read of the staff list takes.
const statementAccountsPage = 200

// StatementAccounts reads every trade account, by business name (pages of the staff
// accounts list, ACCOUNTS on gsi3).
func (s *Store) StatementAccounts(ctx context.Context) ([]statements.Account, error) {
	var out []statements.Account
	var from *ListCursor
	for {
		page, next, err := s.StaffAccounts(ctx, "", from, statementAccountsPage)
		if err != nil {
			return nil, fmt.Errorf("accounts for statements: %w", err)
		}
		for _, p := range page {
			out = append(out, statementAccount(p))
		}
		if next == nil {
			return out, nil
		}
		from = next
	}
}

// EnqueueOnce writes statement email m to the outbox: statements.ErrQueued when its id
// (the account's and the month's) is queued already or was sent (Enqueue's conditions).
func (s *Store) EnqueueOnce(ctx context.Context, m outbox.Message, now time.Time) error {
	err := s.Enqueue(ctx, m, now)
	if errors.Is(err, ErrQueued) {
		return statements.ErrQueued
	}
	return err
}
