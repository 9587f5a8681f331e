package alerts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/shoperr"
)

// MaxPerBuyer is how many alerts one buyer may keep waiting: enough for any real
// wish list, and a bound on what one account can make the sweep read.
const MaxPerBuyer = 200

// Alert is one buyer's wish to be emailed when product SKU is back in stock. Name and
// Path are the product's when the alert was made (the list shows them if the product has
// gone since); Email is the address of the buyer's sign-in.
type Alert struct {
	SKU, UID, Email, Name, Path string
	CreatedAt                   time.Time
}

// OutboxID is the outbox id of a's email: one alert is emailed once; an alert asked for
// again after its email is a new one (its own CreatedAt).
func (a Alert) OutboxID() string {
	return fmt.Sprintf("alert/%s/%s/%d", a.SKU, a.UID, a.CreatedAt.UnixMilli())
}

// ErrFull is a buyer who already keeps MaxPerBuyer alerts.
var ErrFull = errors.New("alerts: the buyer keeps the most alerts allowed")

// Store keeps the alerts (store/alerts.go).
type Store interface {
	// ProductsNow reads the products of skus that exist, strongly consistently.
	ProductsNow(ctx context.Context, skus []string) (map[string]catalogue.Product, error)
	// PutAlert writes a unless its buyer has one of its SKU already (answering that one,
	// unchanged); ErrFull when the buyer keeps limit alerts already.
	PutAlert(ctx context.Context, a Alert, limit int) (Alert, error)
	// DeleteAlert removes uid's alert of sku, if there is one.
	DeleteAlert(ctx context.Context, uid, sku string) error
	// AlertsOf answers uid's alerts, by SKU.
	AlertsOf(ctx context.Context, uid string) ([]Alert, error)
	// AlertsFor answers the alerts waiting for sku.
	AlertsFor(ctx context.Context, sku string) ([]Alert, error)
	// WaitingAlerts answers every waiting alert, by SKU.
	WaitingAlerts(ctx context.Context) ([]Alert, error)
	// SendAlert removes a and writes its email m to the outbox in one transaction, on
	// condition a is still waiting (the same CreatedAt); sent false when it was not (another
	// notifier sent it, or the buyer removed it).
	SendAlert(ctx context.Context, a Alert, m outbox.Message, now time.Time) (sent bool, err error)
}

// Mailer makes the back-in-stock email of alert a for product p (package mail).
type Mailer interface {
	BackInStock(a Alert, p catalogue.Product) outbox.Message
}

// Service carries out the alerts' rules.
type Service struct {
	Store Store
	Mail  Mailer
	Now   func() time.Time
	// Log records what Restocked could not do (the stock write that called it stands).
	Log *slog.Logger
}

// InStock reports whether p can be bought again: at least one pack on hand, not
// discontinued. An alert waits while it is not.
func InStock(p catalogue.Product) bool {
	return !p.Discontinued() && p.Stock >= max(p.PackSize, 1)
}

// Listed is one of a buyer's alerts as their list shows it: the product's name and path
// as it is now (as it was when asked, if it has gone), and whether it is back in stock
// (an email is on its way, or the sweep sends it).
type Listed struct {
	Alert
	InStock bool
}

// Ask makes buyer uid's (signed in as email) alert for sku, or answers the one they have:
// a *shoperr.NotFoundError for no such product, a *shoperr.ConflictError for one
// discontinued, one in stock or open for pre-order (there is nothing to wait for) or a
// buyer with MaxPerBuyer alerts. It answers the buyer's alerts after.
func (s Service) Ask(ctx context.Context, uid, email, sku string) ([]Listed, error) {
	if !catalogue.ValidSKU(sku) {
		return nil, noProduct(sku)
	}
	ps, err := s.Store.ProductsNow(ctx, []string{sku})
	if err != nil {
		return nil, err
	}
	p, ok := ps[sku]
	switch {
	case !ok:
		return nil, noProduct(sku)
	case p.Discontinued():
		return nil, &shoperr.ConflictError{Msg: fmt.Sprintf("%s is no longer sold, so it will not be back in stock.", p.Name)}
	case InStock(p):
		return nil, &shoperr.ConflictError{Msg: fmt.Sprintf("%s is in stock: add it to your basket.", p.Name)}
	case p.PreOrderOpen(s.Now()):
		// A forward product sells beyond its stock until its order-by date.
		return nil, &shoperr.ConflictError{Msg: fmt.Sprintf("%s can be pre-ordered now: add it to your basket.", p.Name)}
	}
	a := Alert{SKU: sku, UID: uid, Email: email, Name: p.Name, Path: catalogue.ProductPath(p), CreatedAt: s.Now().UTC()}
	if _, err := s.Store.PutAlert(ctx, a, MaxPerBuyer); err != nil {
		if errors.Is(err, ErrFull) {
			return nil, &shoperr.ConflictError{Msg: fmt.Sprintf("You have %d stock alerts, the most one account keeps: remove some on your account page, then ask again.", MaxPerBuyer)}
		}
		return nil, err
	}
	return s.List(ctx, uid)
}

// Remove removes buyer uid's alert for sku (nothing when there is none) and answers the
// buyer's alerts after.
func (s Service) Remove(ctx context.Context, uid, sku string) ([]Listed, error) {
	if catalogue.ValidSKU(sku) {
		if err := s.Store.DeleteAlert(ctx, uid, sku); err != nil {
			return nil, err
		}
	}
	return s.List(ctx, uid)
}

// List answers buyer uid's alerts, by SKU, each with its product as it is now.
func (s Service) List(ctx context.Context, uid string) ([]Listed, error) {
	all, err := s.Store.AlertsOf(ctx, uid)
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return []Listed{}, nil
	}
	skus := make([]string, len(all))
	for i, a := range all {
		skus[i] = a.SKU
	}
	ps, err := s.Store.ProductsNow(ctx, skus)
	if err != nil {
		return nil, err
	}
	out := make([]Listed, len(all))
	for i, a := range all {
		l := Listed{Alert: a}
		if p, ok := ps[a.SKU]; ok {
			l.Name, l.Path, l.InStock = p.Name, catalogue.ProductPath(p), InStock(p)
		}
		out[i] = l
	}
	return out, nil
}

// Notify emails each buyer waiting for one of skus whose product is now in stock, and
// removes their alert, each alert in its own transaction conditioned on it still
// waiting: the buyer is emailed once however many notifiers run. It answers how many it
// sent. Products out of stock, discontinued or gone keep their alerts. A few SKUs are
// looked up one by one; more (an import's) read the waiting alerts once.
func (s Service) Notify(ctx context.Context, skus []string) (int, error) {
	skus = slices.Compact(slices.Sorted(slices.Values(skus)))
	var waiting []Alert
	if len(skus) > lookupEach {
		all, err := s.Store.WaitingAlerts(ctx)
		if err != nil {
			return 0, err
		}
		for _, a := range all {
			if _, ok := slices.BinarySearch(skus, a.SKU); ok {
				waiting = append(waiting, a)
			}
		}
		return s.send(ctx, waiting)
	}
	for _, sku := range skus {
		if !catalogue.ValidSKU(sku) {
			continue
		}
		as, err := s.Store.AlertsFor(ctx, sku)
		if err != nil {
			return 0, err
		}
		waiting = append(waiting, as...)
	}
	return s.send(ctx, waiting)
}

// lookupEach is the most SKUs Notify queries one by one.
const lookupEach = 20

// Sweep re-checks every waiting alert's product and emails those back in stock: what a
// Notify that failed (after its stock write stood) left. It answers how many it sent.
func (s Service) Sweep(ctx context.Context) (int, error) {
	waiting, err := s.Store.WaitingAlerts(ctx)
	if err != nil {
		return 0, err
	}
	return s.send(ctx, waiting)
}

// Restocked is Notify for a write that gave stock back or added it: its failure is
// logged, not answered, as the stock write stands and the sweep sends what it missed.
func (s Service) Restocked(ctx context.Context, skus []string) {
	if len(skus) == 0 {
		return
	}
	if _, err := s.Notify(ctx, skus); err != nil && s.Log != nil {
		s.Log.ErrorContext(ctx, "back-in-stock alerts", "skus", skus, "err", err)
	}
}

// send emails the alerts of waiting whose product is in stock.
func (s Service) send(ctx context.Context, waiting []Alert) (int, error) {
	if len(waiting) == 0 {
		return 0, nil
	}
	var skus []string
	for _, a := range waiting {
		skus = append(skus, a.SKU)
	}
	ps, err := s.Store.ProductsNow(ctx, slices.Compact(skus))
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, a := range waiting {
		p, ok := ps[a.SKU]
		if !ok || !InStock(p) {
			continue
		}
		ok, err := s.Store.SendAlert(ctx, a, s.Mail.BackInStock(a, p), s.Now())
		if err != nil {
			errs = append(errs, fmt.Errorf("alert %s for %s: %w", a.SKU, a.UID, err))
			continue
		}
		if ok {
			sent++
		}
	}
	return sent, errors.Join(errs...)
}

func noProduct(sku string) error {
	return &shoperr.NotFoundError{Msg: fmt.Sprintf("There is no product %s.", sku)}
}
