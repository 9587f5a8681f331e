// Command local is the local edge: it stands in for CloudFront and API Gateway,
// serving the static export with production's redirects, 404 page and cache headers,
// and mounting the same /api handlers the Lambdas wrap.
package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/api"
	"github.com/tradeshop/functions/internal/cardpay"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/edge"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/metrics"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/publish"
	"github.com/tradeshop/functions/internal/receiving"
	"github.com/tradeshop/functions/internal/reminders"
	"github.com/tradeshop/functions/internal/statements"
	"github.com/tradeshop/functions/internal/store"
)

func main() {
	log := metrics.NewLogger(os.Stdout, metrics.ConfigFromEnv(os.Getenv))
	if err := run(log); err != nil {
		log.Error("edge stopped", "err", err)
		os.Exit(1)
	}
}

func env(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

func run(log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	deps, err := api.DepsFromEnv(ctx, os.Getenv, log)
	if err != nil {
		return err
	}
	// Pictures uploaded in the back office are published to the folder served at /media/
	// (the cloud's media bucket, unless MEDIA_BUCKET points the edge at one).
	mediaDir := env("MEDIA_DIR", ".local/media")
	if deps.Media == nil {
		deps.Media = media.NewDirStore(mediaDir)
	}
	var emulator []string
	if host := os.Getenv("FIREBASE_AUTH_EMULATOR_HOST"); host != "" {
		emulator = append(emulator, "http://"+host)
	}
	headers, err := edge.SecurityHeaders(emulator...)
	if err != nil {
		return err
	}
	limit, err := edge.ParseAPIRateLimit(os.Getenv("API_RATE_LIMIT"))
	if err != nil {
		return err
	}
	smtp, err := mail.ConfigFromEnv(os.Getenv, deps.Shop)
	if err != nil {
		return err
	}
	sender, err := mail.NewSMTP(smtp)
	if err != nil {
		return err
	}
	// The back office's "Publish catalogue" runs the same release as scripts/release
	// into the folder this edge serves from (docs/catalogue-import.md "Publishing").
	if dir := os.Getenv("PUBLISH_DIR"); dir != "" {
		deps.Publisher = api.CommandPublisher(&publish.Command{Dir: env("REPO_DIR", "."), Env: os.Environ(),
			Args: []string{"node", "scripts/release.mjs", "--target", "dir:" + dir}})
		log.Info("publishing from the back office", "to", dir)
	}
	h := edge.New(edge.Config{
		SiteDir:  env("SITE_DIR", "site/out"),
		MediaDir: mediaDir,
		API:      api.NewHandler(deps),
		Log:      log,
		Headers:  headers,
		APILimit: edge.NewRateLimiter(limit),
	})
	addr := net.JoinHostPort(env("HOST", "127.0.0.1"), env("PORT", "8080"))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// The local payment page stands in for Stripe's hosted page (STAGE=local only; the
	// handler refuses in any other stage too) and delivers its outcomes to this edge's
	// own webhook endpoint, as Stripe would (docs/payments.md "The local payment page").
	var served http.Handler = h
	if deps.Card != nil && deps.Card.Config.Local() {
		mux := http.NewServeMux()
		mux.Handle(cardpay.LocalPagePath, deps.Card.LocalPage("http://"+ln.Addr().String()+"/api/payments/stripe"))
		mux.Handle("/", h)
		served = mux
		log.Info("local payment page", "url", "http://"+ln.Addr().String()+cardpay.LocalPagePath, "stripe", deps.Card.Config.APIBase)
	}
	srv := &http.Server{
		Addr:              addr,
		Handler:           api.WithRequestLog(log, served),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	log.Info("edge listening", "url", "http://"+ln.Addr().String()+"/")
	go sweep(ctx, log, deps.Store, deps.Shop, deps.Card, api.AlertsOf(deps))
	log.Info("sending emails", "smtp", net.JoinHostPort(smtp.Host, strconv.Itoa(smtp.Port)), "from", smtp.From, "every", deliverEvery.String())
	go deliver(ctx, log, deps.Store, sender)
	// The statement emails link the dashboard on this edge, or on SITE_ORIGIN where the
	// edge stands behind another address.
	origin := env("SITE_ORIGIN", "http://"+ln.Addr().String())
	go sendStatements(ctx, log, statements.Service{Store: deps.Store, Shop: deps.Shop, Now: time.Now, SiteOrigin: origin},
		reminders.Service{Store: deps.Store, Notify: mail.Notices{Shop: deps.Shop, SiteURL: origin}, Now: time.Now})
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// sweepEvery is how often the edge undoes large orders whose request died and issues the
// invoices such a request left unissued (the cloud's equivalent is a scheduled run of the
// same sweep).
const sweepEvery = 30 * time.Second

// sweep undoes stale pending orders, issues missing invoices, asks Stripe again for
// unanswered refunds to a card (card nil: card payment off) and emails the back-in-stock
// alerts a failed notify left every sweepEvery until ctx ends.
func sweep(ctx context.Context, log *slog.Logger, st *store.Store, shop config.Shop, card *cardpay.Service, stockAlerts alerts.Service) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		run := metrics.Job(ctx, "sweepOrders", metrics.NewID())
		r, err := orders.Recover(run, st, shop, mail.Notices{Shop: shop}, time.Now(), orders.DefaultStaleAfter, orders.InvoiceAfter)
		// Deliveries whose allocation a crash left part-way (docs/forward-orders.md).
		if received, rerr := (receiving.Service{Store: st, Shop: shop, Now: time.Now, Notify: mail.Notices{Shop: shop}, Placed: mail.Notices{Shop: shop}}).Sweep(run, receiving.SweepAfter); received > 0 || rerr != nil {
			log.InfoContext(run, "deliveries swept", "finished", received, "err", rerr)
		}
		if card != nil {
			if asked, cerr := card.Sweep(run); asked > 0 || cerr != nil {
				log.InfoContext(run, "card refunds swept", "asked", asked, "err", cerr)
			}
		}
		if sent, aerr := stockAlerts.Sweep(run); sent > 0 || aerr != nil {
			log.InfoContext(run, "back-in-stock alerts swept", "sent", sent, "err", aerr)
		}
		backlog := st.RecordOrderBacklogs(run, time.Now())
		log.InfoContext(run, "orders swept", "backlog_err", backlog, "undone", r.Undone, "invoiced", r.Invoiced, "cancelled", r.Cancelled, "err", err, metrics.Flush(run))
	}
}

// statementsEvery is how often the edge looks whether it is the 1st of a London month,
// and if so queues that month's statements, and whether a new London day began, and if
// so queues its pre-order reminders (the cloud's statements Lambda runs once a day).
// Each account's statement is queued once a month, and each buyer's reminder once per
// order-by date, however often it runs.
const statementsEvery = time.Hour

// sendStatements queues the month's statement emails on the 1st of each month, and each
// London day's pre-order reminders once, at the edge's start and every statementsEvery,
// until ctx ends.
func sendStatements(ctx context.Context, log *slog.Logger, sts statements.Service, rems reminders.Service) {
	t := time.NewTicker(statementsEvery)
	defer t.Stop()
	reminded := ""
	for {
		now := time.Now()
		if statements.FirstOfMonth(now) {
			_ = sts.RunJob(ctx, log, metrics.NewID(), statements.Month(now))
		}
		if day := catalogue.LondonDate(now); day != reminded && rems.RunJob(ctx, log, metrics.NewID(), day) == nil {
			reminded = day
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// deliverEvery is how often the edge sends the emails due in the outbox (the cloud's
// sendEmails Lambda runs every minute).
const deliverEvery = 2 * time.Second

// deliver sends the outbox's due emails every deliverEvery until ctx ends. A mail server
// that is down only delays them (Deliver backs off); it is logged once until it is back.
func deliver(ctx context.Context, log *slog.Logger, st *store.Store, sender mail.Sender) {
	t := time.NewTicker(deliverEvery)
	defer t.Stop()
	down := false
	var gauged time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		run := metrics.Job(ctx, "sendEmails", metrics.NewID())
		if time.Since(gauged) >= time.Minute {
			// The outbox's gauges once a minute, as the cloud's sender writes them.
			gauged = time.Now()
			err := st.RecordOutboxBacklog(run, gauged)
			log.InfoContext(run, "outbox", "err", err, metrics.Flush(run))
		}
		sent, failed, err := mail.Deliver(run, st, sender, time.Now())
		switch {
		case err != nil && down && sent == 0:
			// Still down: said so already (its failures are counted on that line only).
		case err != nil:
			log.WarnContext(run, "emails not sent", "sent", sent, "failed", failed, "err", err, mail.DeliveryMetrics(run, sent, failed))
			down = sent == 0
		case sent > 0 || failed > 0:
			log.InfoContext(run, "emails sent", "sent", sent, "failed", failed, mail.DeliveryMetrics(run, sent, failed))
			down = false
		}
	}
}
