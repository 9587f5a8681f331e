package statements

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/payments"
)

// ErrQueued is the store's refusal of a statement email queued (or sent) already: the
// outbox record of that account and month exists.
var ErrQueued = errors.New("queued already")

// Store is what statements need of the shop's store: the ledger's documents, the
// accounts and the outbox.
type Store interface {
	payments.Store
	// StatementAccount reads account uid as a statement names it; an error wrapping the
	// store's not-found when there is none.
	StatementAccount(ctx context.Context, uid string) (Account, error)
	// StatementAccounts reads every trade account (by business name).
	StatementAccounts(ctx context.Context) ([]Account, error)
	// EnqueueOnce writes m to the outbox unless a message of its id is queued or was
	// sent already: ErrQueued then.
	EnqueueOnce(ctx context.Context, m outbox.Message, now time.Time) error
}

// DefaultConcurrency is how many accounts' ledgers the balances list and the monthly run
// read at once: each is a GetItem and two Queries of the account's partition.
const DefaultConcurrency = 8

// Service draws statements, lists balances and sends the monthly statements.
type Service struct {
	Store Store
	Shop  config.Shop
	Now   func() time.Time
	// Concurrency bounds the accounts read at once (DefaultConcurrency when 0).
	Concurrency int
	// SiteOrigin is where the site is served ("https://shop.example"; "" where it is not
	// known): the statement email links the buyer's dashboard there.
	SiteOrigin string
}

func (s Service) ledgers() payments.Service { return payments.Service{Store: s.Store, Now: s.Now} }

// Statement draws account uid's statement today.
func (s Service) Statement(ctx context.Context, uid string) (Statement, error) {
	acc, err := s.Store.StatementAccount(ctx, uid)
	if err != nil {
		return Statement{}, err
	}
	return s.statementOf(ctx, acc)
}

func (s Service) statementOf(ctx context.Context, acc Account) (Statement, error) {
	l, err := s.ledgers().Ledger(ctx, acc.UID)
	if err != nil {
		return Statement{}, fmt.Errorf("statement of %s: %w", acc.UID, err)
	}
	return Of(acc, l, s.Now()), nil
}

// All draws the statement of every account with a balance (Statement.HasBalance), by
// business name, reading at most Concurrency accounts at once.
func (s Service) All(ctx context.Context) ([]Statement, error) {
	accs, err := s.Store.StatementAccounts(ctx)
	if err != nil {
		return nil, err
	}
	sts := make([]Statement, len(accs))
	err = s.each(ctx, accs, func(ctx context.Context, i int, acc Account) error {
		st, err := s.statementOf(ctx, acc)
		sts[i] = st
		return err
	})
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(sts, func(st Statement) bool { return !st.HasBalance() }), nil
}

// each runs f for every account, at most Concurrency at once; the first error stops the
// ones not started and is answered.
func (s Service) each(ctx context.Context, accs []Account, f func(ctx context.Context, i int, acc Account) error) error {
	n := s.Concurrency
	if n <= 0 {
		n = DefaultConcurrency
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i, acc := range accs {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(ctx, i, acc); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	return first
}

// monthPattern is a month as the run is told it: 2026-12.
var monthPattern = regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])$`)

// ParseMonth reads a month written YYYY-MM.
func ParseMonth(s string) (string, error) {
	if !monthPattern.MatchString(s) {
		return "", fmt.Errorf("month %q: write it YYYY-MM, as 2026-12", s)
	}
	return s, nil
}

// Month is the London month of t, YYYY-MM: the month a run on its first day sends.
func Month(t time.Time) string { return payments.Day(t).Format("2006-01") }

// Run is what one monthly run did.
type Run struct {
	Month    string
	Accounts int // accounts read
	Queued   int // statements queued by this run
	Already  int // statements of this month queued or sent by an earlier run
	NoEmail  int // accounts with a balance but no email address
	Failed   int // accounts whose statement could not be read or queued
}

// Send queues the statement email of month for every account with a balance: once per
// account and month, however often the run is started or wherever it stopped (the
// outbox record's id is the account's and the month's, and its put is conditional). An
// account that fails is counted and the others carry on; err is the first failure.
func (s Service) Send(ctx context.Context, month string) (Run, error) {
	r := Run{Month: month}
	if _, err := ParseMonth(month); err != nil {
		return r, err
	}
	accs, err := s.Store.StatementAccounts(ctx)
	if err != nil {
		return r, err
	}
	r.Accounts = len(accs)
	var mu sync.Mutex
	var first error
	count := func(field *int, err error) {
		mu.Lock()
		defer mu.Unlock()
		*field++
		if err != nil && first == nil {
			first = err
		}
	}
	_ = s.each(ctx, accs, func(ctx context.Context, _ int, acc Account) error {
		st, err := s.statementOf(ctx, acc)
		switch {
		case err != nil:
			count(&r.Failed, err)
			return nil
		case !st.HasBalance():
			return nil
		case strings.TrimSpace(acc.Email) == "":
			count(&r.NoEmail, nil)
			return nil
		}
		err = s.Store.EnqueueOnce(ctx, Email(st, s.Shop, month, s.SiteOrigin), s.Now())
		switch {
		case errors.Is(err, ErrQueued):
			count(&r.Already, nil)
		case err != nil:
			count(&r.Failed, fmt.Errorf("queue the statement of %s: %w", acc.UID, err))
		default:
			count(&r.Queued, nil)
		}
		return nil
	})
	return r, first
}

// EmailID is the outbox id of account uid's statement of month: one a month.
func EmailID(uid, month string) string { return "statement-" + month + "/" + uid }

// FirstOfMonth says t is on the 1st of a London month: the day the statements go.
func FirstOfMonth(t time.Time) bool { return payments.Day(t).Day() == 1 }

// JobName is the statements run's name on its log line and in endpoints.json's jobs.
const JobName = "statements"

// RunJob is one run of the statements job (the Lambda's, the local edge's) with run id
// id: Send of month, and the run's line with its counts and the store's timeouts and
// throttles during it, as every job writes one.
func (s Service) RunJob(ctx context.Context, log *slog.Logger, id, month string) error {
	ctx = metrics.Job(ctx, JobName, id)
	r, err := s.Send(ctx, month)
	log.InfoContext(ctx, "statements queued", "month", r.Month, "accounts", r.Accounts, "queued", r.Queued, "already", r.Already,
		"no_email", r.NoEmail, "failed", r.Failed, "err", err, metrics.Flush(ctx))
	return err
}
