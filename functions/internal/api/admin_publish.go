package api

import (
	"errors"
	"net/http"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/publish"
)

// Publisher publishes the catalogue from the back office (docs/catalogue-import.md
// "Publishing"); *publish.Command is the local edge's.
type Publisher interface {
	Start(by string) (publish.Status, error)
	Status() publish.Status
}

// noPublisher is the answer where the stack cannot build the site (the cloud's Lambdas).
const noPublisher = "Publishing from the back office is not available here: the site is built and published by a release engineer with scripts/release --target aws (docs/catalogue-import.md \"Publishing\"). The imported catalogue is in the shop's table already; buyers see it in search, the basket and checkout now, and on the catalogue pages from the next release."

// handleAdminPublish answers POST /api/admin/catalogue/publish {token}: starts a publish
// (202 with its status; 409 while one runs).
func handleAdminPublish(d publishDeps) http.Handler {
	return staffPost(d.staffGate, func(w http.ResponseWriter, r *http.Request, by orders.Staff, _ tokenRequest) {
		if d.Publisher == nil {
			writeError(w, r, d.Log, &errNotAvailableHere{msg: noPublisher})
			return
		}
		s, err := d.Publisher.Start(by.Email)
		if errors.Is(err, publish.ErrRunning) {
			writeError(w, r, d.Log, &errPublishRunning{status: s})
			return
		}
		encode(w, http.StatusAccepted, publishAnswerOf(s))
	})
}

// handleAdminPublishStatus answers GET /api/admin/catalogue/publish: the last publish's state.
func handleAdminPublishStatus(d publishDeps) http.Handler {
	return staffGet(d.staffGate, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		if d.Publisher == nil {
			writeError(w, r, d.Log, &errNotAvailableHere{msg: noPublisher})
			return
		}
		encode(w, http.StatusOK, publishAnswerOf(d.Publisher.Status()))
	})
}
