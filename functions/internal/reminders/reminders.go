package reminders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/outbox"
)

// Window is how many days before a forward product's order-by date its reminder is due.
// A run on any day of the window sends what is due and not yet sent, so a run that
// failed, or a line added to a basket later in the week, is caught up by the next day's
// run; the email's id makes it one per buyer and order-by date however often it runs.
const Window = 7

// ErrQueued says a reminder of this id is queued already or was sent.
var ErrQueued = errors.New("reminder queued already")

// Basket is what a reminder needs of a buyer's basket: the account's email address and
// the units of each forward SKU the basket holds.
type Basket struct {
	UID   string
	Email string
	Units map[string]int // by SKU; only the SKUs asked for
}

// Store is what reminders need of the shop's store.
type Store interface {
	// ForwardProducts reads every product marked forward (any order-by date).
	ForwardProducts(ctx context.Context) ([]catalogue.Product, error)
	// BasketsHolding reads the baskets holding a line of any of skus, with each
	// account's email address.
	BasketsHolding(ctx context.Context, skus []string) ([]Basket, error)
	// EnqueueReminder writes m to the outbox unless a message of its id is queued or was
	// sent already: ErrQueued then.
	EnqueueReminder(ctx context.Context, m outbox.Message, now time.Time) error
}

// Line is one basket line a reminder names.
type Line struct {
	SKU   string
	Name  string
	Packs int
}

// Reminder is one email: a buyer's basket lines of the forward products whose
// pre-orders close on OrderBy (ISO date).
type Reminder struct {
	UID     string
	Email   string
	OrderBy string
	Lines   []Line // by name
}

// Notifier makes a reminder's email (package mail).
type Notifier interface {
	PreOrderReminder(r Reminder) outbox.Message
}

// EmailID is the outbox id of uid's reminder of the pre-orders closing on orderBy: one
// per buyer and order-by date.
func EmailID(uid, orderBy string) string { return "reminder/" + uid + "/" + orderBy }

// Due answers the forward products whose reminder is due on London day today (ISO
// date): pre-order still open (today on or before the order-by date) and the order-by
// date at most Window days ahead.
func Due(products []catalogue.Product, today string) ([]catalogue.Product, error) {
	day, err := time.Parse(time.DateOnly, today)
	if err != nil {
		return nil, fmt.Errorf("reminder day %q: %w", today, err)
	}
	last := day.AddDate(0, 0, Window).Format(time.DateOnly)
	var due []catalogue.Product
	for _, p := range products {
		if p.Forward != nil && today <= p.Forward.OrderBy && p.Forward.OrderBy <= last {
			due = append(due, p)
		}
	}
	return due, nil
}

// RemindersOf answers the reminders of baskets for the due products: one per basket and
// order-by date holding at least a whole pack of one of them, in the order of baskets.
func RemindersOf(due []catalogue.Product, baskets []Basket) []Reminder {
	var out []Reminder
	for _, b := range baskets {
		byDate := map[string][]Line{}
		for _, p := range due {
			units := b.Units[p.SKU]
			if units <= 0 || p.PackSize <= 0 || units < p.PackSize {
				continue
			}
			byDate[p.Forward.OrderBy] = append(byDate[p.Forward.OrderBy], Line{SKU: p.SKU, Name: p.Name, Packs: units / p.PackSize})
		}
		dates := make([]string, 0, len(byDate))
		for d := range byDate {
			dates = append(dates, d)
		}
		slices.Sort(dates)
		for _, d := range dates {
			lines := byDate[d]
			slices.SortFunc(lines, func(a, b Line) int { return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.SKU, b.SKU)) })
			out = append(out, Reminder{UID: b.UID, Email: b.Email, OrderBy: d, Lines: lines})
		}
	}
	return out
}

// Service sends the reminders.
type Service struct {
	Store  Store
	Notify Notifier
	Now    func() time.Time
}

// Run is what one run did.
type Run struct {
	Day      string // the London day it ran for
	Products int    // forward products due
	Baskets  int    // baskets holding a line of one
	Queued   int    // reminders queued by this run
	Already  int    // reminders queued or sent by an earlier run
	NoEmail  int    // reminders due to an account with no email address
	Failed   int    // reminders that could not be queued
}

// Send queues the reminders due on London day today (ISO date): once per buyer and
// order-by date, however often it runs. A reminder that fails is counted and the
// others carry on; err is the first failure.
func (s Service) Send(ctx context.Context, today string) (Run, error) {
	r := Run{Day: today}
	products, err := s.Store.ForwardProducts(ctx)
	if err != nil {
		return r, err
	}
	due, err := Due(products, today)
	if err != nil || len(due) == 0 {
		return r, err
	}
	r.Products = len(due)
	skus := make([]string, len(due))
	for i, p := range due {
		skus[i] = p.SKU
	}
	baskets, err := s.Store.BasketsHolding(ctx, skus)
	if err != nil {
		return r, err
	}
	r.Baskets = len(baskets)
	var first error
	for _, rem := range RemindersOf(due, baskets) {
		if strings.TrimSpace(rem.Email) == "" {
			r.NoEmail++
			continue
		}
		err := s.Store.EnqueueReminder(ctx, s.Notify.PreOrderReminder(rem), s.Now())
		switch {
		case errors.Is(err, ErrQueued):
			r.Already++
		case err != nil:
			r.Failed++
			if first == nil {
				first = fmt.Errorf("queue the reminder of %s for %s: %w", rem.UID, rem.OrderBy, err)
			}
		default:
			r.Queued++
		}
	}
	return r, first
}

// JobName is the reminders run's job on its log line and metrics: the statements job's
// (endpoints.json), the function they run in, so its dashboard and alarms count them.
const JobName = "statements"

// RunJob is one run of the reminders (the statements Lambda's daily run, the local
// edge's) with run id id: Send of London day today, and the run's line with its counts
// and the store's timeouts and throttles during it, as every job writes one.
func (s Service) RunJob(ctx context.Context, log *slog.Logger, id, today string) error {
	ctx = metrics.Job(ctx, JobName, id)
	r, err := s.Send(ctx, today)
	log.InfoContext(ctx, "pre-order reminders queued", "day", r.Day, "products", r.Products, "baskets", r.Baskets, "queued", r.Queued,
		"already", r.Already, "no_email", r.NoEmail, "failed", r.Failed, "err", err, metrics.Flush(ctx))
	return err
}
