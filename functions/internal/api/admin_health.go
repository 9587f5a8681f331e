package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/store"
)

// GET /api/admin/health is the back office's Health page (docs/back-office.md "Health"):
// the app errors the site reported, grouped, and the shop's waiting work (the email
// outbox, pending orders, orders waiting for their invoice) and its last catalogue import,
// all read from the table, locally and in AWS alike.

// maxHealthErrorGroups is how many error groups the Health page lists, most recently seen
// first.
const maxHealthErrorGroups = 100

// healthStore is what the Health page reads.
type healthStore interface {
	AppErrorGroups(ctx context.Context, now time.Time, limit int) ([]store.AppErrorGroup, error)
	Backlogs(ctx context.Context, now time.Time) (store.Backlogs, error)
	LastImport(ctx context.Context) (orders.AuditEntry, error)
}

// handleAdminHealth answers GET /api/admin/health for staff.
func handleAdminHealth(g staffGate, st healthStore, now func() time.Time) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		at := now()
		groups, err := st.AppErrorGroups(r.Context(), at, maxHealthErrorGroups)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		backlogs, err := st.Backlogs(r.Context(), at)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		var last *lastImportAnswer
		imp, err := st.LastImport(r.Context())
		switch {
		case err == nil:
			last = lastImportAnswerOf(imp)
		case !errors.Is(err, store.ErrNotFound):
			writeError(w, r, g.Log, err)
			return
		}
		encode(w, http.StatusOK, adminHealthAnswer{CheckedAt: unixMillisOf(at), AppErrors: appErrorAnswers(groups),
			Outbox: outboxHealthAnswer{Waiting: backlogs.OutboxWaiting.Count, Failed: backlogs.OutboxFailed.Count,
				More: backlogs.OutboxWaiting.More, OldestWaitingAt: oldestAt(backlogs.OutboxWaiting)},
			OrdersPending: backlogAnswerOf(backlogs.OrdersPending), OrdersToInvoice: backlogAnswerOf(backlogs.OrdersToInvoice),
			LastImport: last})
	})
}

func appErrorAnswers(groups []store.AppErrorGroup) []appErrorGroupAnswer {
	out := make([]appErrorGroupAnswer, len(groups))
	for i, g := range groups {
		out[i] = appErrorGroupAnswer{Kind: g.Kind, Name: g.Name, Message: g.Message, Path: g.Path, Status: g.Status, Count: g.Count,
			FirstSeen: unixMillisOf(g.FirstSeen), LastSeen: unixMillisOf(g.LastSeen), Build: g.Build}
	}
	return out
}

// oldestAt is a backlog's oldest item's time, or nil when none wait.
func oldestAt(b store.Backlog) *unixMillis {
	if b.Oldest.IsZero() {
		return nil
	}
	at := unixMillisOf(b.Oldest)
	return &at
}

func backlogAnswerOf(b store.Backlog) backlogAnswer {
	return backlogAnswer{Count: b.Count, More: b.More, OldestAt: oldestAt(b)}
}

// lastImportAnswerOf is the import's audit entry as the Health page shows it: when, by
// whom (the staff member's email, else uid), and a sentence of what it did.
func lastImportAnswerOf(e orders.AuditEntry) *lastImportAnswer {
	by := e.By.Email
	if by == "" {
		by = e.By.UID
	}
	return &lastImportAnswer{At: unixMillisOf(e.At), By: by, Summary: importSummary(e.After)}
}

// importSummary is a sentence of an import's audit entry's fields (catimport.Apply's):
// its file and what it changed, such as "products.csv: 2 new, 5 changed, 1 discontinued,
// 3 unchanged (a full import)."
func importSummary(after map[string]any) string {
	file, _ := after["file"].(string)
	if file == "" {
		file = "The import"
	}
	var parts []string
	for _, k := range []struct{ key, label string }{{"new", "new"}, {"changed", "changed"}, {"discontinued", "discontinued"},
		{"unchanged", "unchanged"}, {"newRanges", "new ranges"}, {"changedRanges", "changed ranges"},
		{"newCategories", "new categories"}, {"changedCategories", "changed categories"}} {
		if n, ok := after[k.key].(float64); ok && (n > 0 || k.key == "new" || k.key == "changed") {
			parts = append(parts, fmt.Sprintf("%d %s", int(n), k.label))
		}
	}
	s := file + ": " + strings.Join(parts, ", ")
	if full, _ := after["full"].(bool); full {
		s += " (a full import)"
	}
	return s + "."
}
