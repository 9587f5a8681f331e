package api

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/shoperr"
)

// alertAnswer is one of the buyer's back-in-stock alerts: the product's name and page as
// they are now, and whether it is back in stock (its email is on its way).
type alertAnswer struct {
	SKU       string     `json:"sku"`
	Name      string     `json:"name"`
	Path      string     `json:"path"`
	CreatedAt unixMillis `json:"created_at"`
	InStock   bool       `json:"in_stock"`
}

// alertsAnswer is the buyer's alerts, by SKU: the answer of GET /api/alerts and of the
// ask and the remove, so the site keeps one list.
type alertsAnswer struct {
	Alerts []alertAnswer `json:"alerts"`
}

func alertsAnswerOf(ls []alerts.Listed) alertsAnswer {
	out := alertsAnswer{Alerts: make([]alertAnswer, len(ls))}
	for i, l := range ls {
		out.Alerts[i] = alertAnswer{SKU: l.SKU, Name: l.Name, Path: l.Path, CreatedAt: unixMillisOf(l.CreatedAt), InStock: l.InStock}
	}
	return out
}

// answerAlerts encodes the buyer's alerts, or the error that stopped them.
func answerAlerts(w http.ResponseWriter, r *http.Request, log *slog.Logger, ls []alerts.Listed, err error) {
	if err != nil {
		writeError(w, r, log, err)
		return
	}
	encode(w, http.StatusOK, alertsAnswerOf(ls))
}

// handleAlerts answers GET /api/alerts: the buyer's back-in-stock alerts.
func handleAlerts(log *slog.Logger, verify auth.Verifier, as alerts.Service) http.Handler {
	return withBearer(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		ls, err := as.List(r.Context(), who.UID)
		answerAlerts(w, r, log, ls, err)
	})
}

// handleAskAlert answers POST /api/alerts {token, sku}: the buyer's alert for an
// out-of-stock product, emailed to their sign-in's address when it is back (asking twice
// keeps one); 404 for no such product, 409 for one discontinued or in stock.
func handleAskAlert(log *slog.Logger, verify auth.Verifier, as alerts.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req removeRequest) {
		if strings.TrimSpace(who.Email) == "" {
			writeError(w, r, log, &shoperr.ConflictError{Msg: "Your sign-in has no email address to send the alert to."})
			return
		}
		ls, err := as.Ask(r.Context(), who.UID, who.Email, req.SKU)
		answerAlerts(w, r, log, ls, err)
	})
}

// handleRemoveAlert answers POST /api/alerts/remove {token, sku}: the buyer's alert for
// the product removed (nothing to remove is no error).
func handleRemoveAlert(log *slog.Logger, verify auth.Verifier, as alerts.Service) http.Handler {
	return withToken(log, verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims, req removeRequest) {
		ls, err := as.Remove(r.Context(), who.UID, req.SKU)
		answerAlerts(w, r, log, ls, err)
	})
}
