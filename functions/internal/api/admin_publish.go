package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/publish"
)

// Publisher publishes the catalogue from the back office (docs/catalogue-import.md
// "Publishing"): the local edge's command (CommandPublisher), or in the cloud the stage's
// CodeBuild project (publish.CodeBuild). Start answers publish.ErrRunning, with the
// running one's status, while one runs.
type Publisher interface {
	Start(ctx context.Context, by string) (publish.Status, error)
	Status(ctx context.Context) (publish.Status, error)
}

var _ Publisher = publish.CodeBuild{}

// CommandPublisher is the local edge's command as a Publisher: its state is in memory,
// so reading it never fails.
func CommandPublisher(c *publish.Command) Publisher { return commandPublisher{c} }

type commandPublisher struct{ c *publish.Command }

func (p commandPublisher) Start(_ context.Context, by string) (publish.Status, error) {
	return p.c.Start(by)
}
func (p commandPublisher) Status(context.Context) (publish.Status, error) { return p.c.Status(), nil }

// noPublisher is the answer where the server was given no way to publish (a function
// deployed without the publish project, or a local edge without PUBLISH_DIR).
const noPublisher = "Publishing from the back office is not available here: this server has no publish build (PUBLISH_PROJECT in the cloud, PUBLISH_DIR locally), so a release engineer publishes with scripts/release (docs/catalogue-import.md \"Publishing\"). The imported catalogue is in the shop's table already; buyers see it in search, the basket and checkout now, and on the catalogue pages from the next release."

// handleAdminPublish answers POST /api/admin/catalogue/publish {token}: starts a publish
// (202 with its status; 409 while one runs).
func handleAdminPublish(d publishDeps) http.Handler {
	return staffPost(d.staffGate, func(w http.ResponseWriter, r *http.Request, by orders.Staff, _ tokenRequest) {
		if d.Publisher == nil {
			writeError(w, r, d.Log, &errNotAvailableHere{msg: noPublisher})
			return
		}
		s, err := d.Publisher.Start(r.Context(), by.Email)
		if errors.Is(err, publish.ErrRunning) {
			writeError(w, r, d.Log, &errPublishRunning{status: s})
			return
		}
		if err != nil {
			writeError(w, r, d.Log, err)
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
		s, err := d.Publisher.Status(r.Context())
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, publishAnswerOf(s))
	})
}
