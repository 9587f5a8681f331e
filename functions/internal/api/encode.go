package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/publish"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// maxBodyBytes bounds every request body; only the catalogue import's routes, which
// carry whole files, have their own larger limit (admin_catalogue.go).
const maxBodyBytes = 64 << 10

// Validator is a request body that can check itself. Valid answers a map of field
// name to problem, empty when the body is acceptable.
type Validator interface {
	Valid(ctx context.Context) map[string]string
}

// cleaner is a body with free text. clean puts each text field in the one text rule's
// form in place (internal/text: trimmed, NFC) and answers the fields the rule refuses;
// decode calls it before Valid, so Valid and the handler see, and store, the cleaned text.
type cleaner interface {
	clean() map[string]string
}

// errBadRequest marks errors whose message is safe to show the caller.
type errBadRequest struct {
	msg      string
	problems map[string]string
}

func (e *errBadRequest) Error() string { return e.msg }

// errTooLarge is a request body over its endpoint's limit: 413 with a sentence saying the
// limit and what to do instead.
type errTooLarge struct{ msg string }

func (e *errTooLarge) Error() string { return e.msg }

// bodyTooLarge is the 400 of a body over maxBodyBytes (as it always was).
func bodyTooLarge(limit int64) error {
	return &errBadRequest{msg: fmt.Sprintf("This request is larger than %d bytes, the most the shop takes: send less at once.", limit)}
}

// invalidFields is the 400 for a body whose fields are wrong: each problem by field name.
func invalidFields(problems map[string]string) error {
	return &errBadRequest{msg: msgInvalidFields, problems: problems}
}

// invalidField is invalidFields for one field.
func invalidField(field, problem string) error {
	return invalidFields(map[string]string{field: problem})
}

// decode reads a JSON body of at most maxBodyBytes into T and validates it.
func decode[T Validator](r *http.Request) (T, error) {
	return decodeAtMost[T](r, maxBodyBytes, bodyTooLarge)
}

// decodeAtMost is decode with its own limit, and the error a body over it answers.
func decodeAtMost[T Validator](r *http.Request, limit int64, tooLarge func(limit int64) error) (T, error) {
	var v T
	body := http.MaxBytesReader(nil, r.Body, limit)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return v, tooLarge(limit)
		case errors.Is(err, io.EOF):
			return v, &errBadRequest{msg: "The request is empty: send a JSON object."}
		default:
			return v, &errBadRequest{msg: "The request is not valid JSON for this endpoint (" + err.Error() + ")."}
		}
	}
	if dec.More() {
		return v, &errBadRequest{msg: "The request has data after its JSON object: send one object."}
	}
	problems := map[string]string{}
	if c, ok := any(&v).(cleaner); ok {
		maps.Copy(problems, c.clean())
	}
	text := len(problems) == 1
	for field, problem := range v.Valid(r.Context()) {
		if _, refused := problems[field]; !refused {
			problems[field] = problem // the text rule's problem is the first to fix
		}
	}
	if len(problems) > 0 {
		err := invalidFields(problems)
		if text && len(problems) == 1 {
			for _, sentence := range problems {
				err.(*errBadRequest).msg = sentence // names its field: "Company name must not …"
			}
		}
		return v, err
	}
	return v, nil
}

// encode writes v as JSON with the given status. Headers are set before WriteHeader.
func encode[T any](w http.ResponseWriter, status int, v T) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// errorBody is the JSON every error answer carries (docs/api.md "Errors"). Error is a
// whole sentence for the buyer or staff member, shown as sent. Problems are the fields
// that break a rule, by field name, each a whole sentence naming its field. OrderID names
// an order the buyer should see instead (a basket that was just ordered). Code tells
// apart refusals a program acts on: "csrf_token" (a 403 for a missing, stale or foreign
// CSRF token: fetch a new token and repeat the call once), "cross_site" (a 403 for a
// request from another site: a new token does not help), "recent_sign_in" and
// "staff_only".
type errorBody struct {
	Error    string            `json:"error"`
	Code     string            `json:"code,omitempty"`
	Problems map[string]string `json:"problems,omitempty"`
	OrderID  string            `json:"order_id,omitempty"`
	// Lines are the lines an add of many refused (409), each with its problem.
	Lines []lineProblem `json:"lines,omitempty"`
	// FileProblems are the rows of uploaded files that break a rule (the catalogue
	// import's 422), at most maxProblems of them; FileProblemCount is how many there were.
	FileProblems     []fileProblem `json:"file_problems,omitempty"`
	FileProblemCount int           `json:"file_problem_count,omitempty"`
}

// fileProblem is one problem of an uploaded file: where it is (the file, its line from 1
// and its column's heading, each left out where it does not apply) and the problem, a
// whole sentence that names the column itself.
type fileProblem struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  string `json:"column,omitempty"`
	Problem string `json:"problem"`
}

// The codes of errorBody.
const (
	codeCSRFToken    = "csrf_token"
	codeCrossSite    = "cross_site"
	codeRecentSignIn = "recent_sign_in"
	codeStaffOnly    = "staff_only"
)

// errNeedsRecentSignIn refuses a change of sign-in facts (the profile's email) from a
// sign-in older than auth.RecentSignIn: 403 with code recent_sign_in.
var errNeedsRecentSignIn = errors.New("needs a recent sign-in")

// errNotThroughSite refuses a request that did not come through CloudFront: 403.
var errNotThroughSite = errors.New("not through the site")

// errNotAvailableHere is a back office feature this deployment does not have (publishing
// from the cloud's Lambdas): 501 with its message, which says what to do instead.
type errNotAvailableHere struct{ msg string }

func (e *errNotAvailableHere) Error() string { return e.msg }

// errServiceMissing is a part of the server that is not configured (no media store): 503
// with its message; the cause is logged.
type errServiceMissing struct{ msg, cause string }

func (e *errServiceMissing) Error() string { return e.msg }

// errPublishRunning is a publish asked for while one runs: 409 with the running one's
// status beside the error.
type errPublishRunning struct{ status publish.Status }

func (e *errPublishRunning) Error() string { return msgPublishRunning }

// errTooManyReports refuses a client's app error reports past its limit for the minute:
// 429 with Retry-After, the seconds to the next minute.
type errTooManyReports struct{ retryAfter time.Duration }

func (e *errTooManyReports) Error() string { return msgTooManyReports }

// errImportStopped is an apply that stopped part-way: 500 saying to apply it again.
type errImportStopped struct{ err error }

func (e *errImportStopped) Error() string { return "catalogue import stopped: " + e.err.Error() }
func (e *errImportStopped) Unwrap() error { return e.err }

// The messages writeError sends for errors that carry none of their own.
const (
	msgInvalidFields  = "Some fields need correcting: each problem is listed by its field."
	msgSignIn         = "Your sign-in is missing or has expired: sign in again."
	msgStaffOnly      = "Staff only: this part of the shop is for the shop's own staff. Ask the shop to grant you staff access, then sign in again."
	msgRecentSignIn   = "Sign in again with your password to change your email: it needs a sign-in of the last 5 minutes."
	msgCrossSite      = "This request did not come from this shop's pages: open the shop and try again there."
	msgCSRF           = "This form has expired or did not come from this shop: reload the page and try again."
	msgNotThroughSite = "The shop's API answers only through the shop's own address."
	msgNotFound       = "That was not found: it may have been removed. Reload the page to see what there is now."
	msgStaleImport    = "The file changed since you checked it: check it again."
	msgPublishRunning = "A publish is already running: wait for it to finish, then publish again."
	msgImportStopped  = "The import stopped part-way. Apply it again to finish it: nothing is written twice."
	msgTooManyReports = "This browser has sent as many error reports as the shop takes in a minute: the rest are not recorded."
	msgStoreDown      = store.UnavailableMessage
	msgKeysDown       = "The sign-in service did not answer: please try again in a moment."
	msgInternal       = "Something went wrong on our side: please try again."
	msgAbandoned      = "The request was abandoned: the page that sent it has gone."
)

// statusClientClosed is the status of a request its caller abandoned (writeError).
const statusClientClosed = 499

// writeError maps an error to its status and a message safe to show. It is the one
// place that decides error statuses (a test holds every other place in this package to
// 2xx); a 500 never carries err.Error().
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The caller went away (a page left while its calls were out) and its request's
		// context ended the work: nothing failed here, and nobody reads the answer. It is
		// no 5xx, so it raises no alarm; 499 is nginx's "client closed request".
		log.InfoContext(r.Context(), "request abandoned by the client", "path", r.URL.Path)
		encode(w, statusClientClosed, errorBody{Error: msgAbandoned})
		return
	}
	status, body, failure := errorAnswer(err)
	if failure != "" {
		log.ErrorContext(r.Context(), failure, "path", r.URL.Path, "status", status, "err", err)
	}
	var tooMany *errTooManyReports
	if errors.As(err, &tooMany) {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(tooMany.retryAfter.Seconds())))))
	}
	var running *errPublishRunning
	if errors.As(err, &running) {
		encode(w, status, publishRunningAnswer{body, publishAnswerOf(running.status)})
		return
	}
	encode(w, status, body)
}

// errorAnswer is the status and body of an error (writeError's table), and for a failure
// of the server's (5xx) what to log it as.
func errorAnswer(err error) (status int, body errorBody, failure string) {
	var bad *errBadRequest
	var tooLarge *errTooLarge
	var refused *shoperr.ConflictError
	var unknown *shoperr.NotFoundError
	var field *shoperr.FieldError
	var fields *shoperr.FieldsError
	var lines *shoperr.LinesError
	var invalidFiles *catimport.Invalid
	var busy *store.ImportBusy
	var notHere *errNotAvailableHere
	var missing *errServiceMissing
	var running *errPublishRunning
	var stopped *errImportStopped
	var tooMany *errTooManyReports
	switch {
	case errors.As(err, &bad):
		return http.StatusBadRequest, errorBody{Error: bad.msg, Problems: bad.problems}, ""
	case errors.As(err, &tooLarge):
		return http.StatusRequestEntityTooLarge, errorBody{Error: tooLarge.msg}, ""
	case errors.As(err, &field):
		return http.StatusBadRequest, errorBody{Error: msgInvalidFields, Problems: map[string]string{field.Field: field.Problem}}, ""
	case errors.As(err, &fields):
		return http.StatusBadRequest, errorBody{Error: msgInvalidFields, Problems: fields.Problems}, ""
	case errors.As(err, &lines):
		body := errorBody{Error: err.Error(), Lines: make([]lineProblem, len(lines.Lines))}
		for i, l := range lines.Lines {
			body.Lines[i] = *lineProblemOf(l.LineProblem)
			body.Lines[i].Index, body.Lines[i].SKU = &l.Index, l.SKU
		}
		return http.StatusConflict, body, ""
	case errors.As(err, &refused):
		// err's own text: the refusal with what a caller added ("Line 3 (GC101-00001): …").
		body := errorBody{Error: err.Error(), OrderID: refused.OrderID}
		if refused.Reason == shoperr.ReasonCreditHold {
			// Checkout offers pro-forma on this refusal (docs/back-office.md "Credit hold").
			body.Code = shoperr.ReasonCreditHold
		}
		return http.StatusConflict, body, ""
	case errors.As(err, &unknown):
		return http.StatusNotFound, errorBody{Error: unknown.Msg}, ""
	case errors.As(err, &invalidFiles):
		body := errorBody{Error: invalidFiles.Error(), FileProblems: make([]fileProblem, len(invalidFiles.Problems)), FileProblemCount: invalidFiles.Count}
		for i, p := range invalidFiles.Problems {
			body.FileProblems[i] = fileProblem{File: p.File, Line: p.Line, Column: p.Column, Problem: p.Message}
		}
		return http.StatusUnprocessableEntity, body, ""
	case errors.Is(err, catimport.ErrStale):
		return http.StatusConflict, errorBody{Error: msgStaleImport}, ""
	case errors.As(err, &busy):
		return http.StatusConflict, errorBody{Error: busy.Error()}, ""
	case errors.As(err, &running):
		return http.StatusConflict, errorBody{Error: running.Error()}, ""
	case errors.As(err, &notHere):
		return http.StatusNotImplemented, errorBody{Error: notHere.msg}, ""
	case errors.As(err, &tooMany):
		return http.StatusTooManyRequests, errorBody{Error: msgTooManyReports}, ""
	case errors.Is(err, auth.ErrInvalidToken):
		return http.StatusUnauthorized, errorBody{Error: msgSignIn}, ""
	case errors.Is(err, errStaffOnly):
		return http.StatusForbidden, errorBody{Error: msgStaffOnly, Code: codeStaffOnly}, ""
	case errors.Is(err, errNeedsRecentSignIn):
		return http.StatusForbidden, errorBody{Error: msgRecentSignIn, Code: codeRecentSignIn}, ""
	case errors.Is(err, csrf.ErrCrossSite):
		return http.StatusForbidden, errorBody{Error: msgCrossSite, Code: codeCrossSite}, ""
	case isCSRF(err):
		return http.StatusForbidden, errorBody{Error: msgCSRF, Code: codeCSRFToken}, ""
	case errors.Is(err, errNotThroughSite):
		return http.StatusForbidden, errorBody{Error: msgNotThroughSite}, ""
	case errors.Is(err, store.ErrUnavailable):
		return http.StatusServiceUnavailable, errorBody{Error: msgStoreDown}, "store unavailable"
	case errors.As(err, &stopped):
		return http.StatusInternalServerError, errorBody{Error: msgImportStopped}, "catalogue import stopped"
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, errorBody{Error: msgNotFound}, ""
	case errors.Is(err, auth.ErrKeysUnavailable):
		return http.StatusServiceUnavailable, errorBody{Error: msgKeysDown}, "token keys unavailable"
	case errors.As(err, &missing):
		return http.StatusServiceUnavailable, errorBody{Error: missing.msg}, missing.cause
	default:
		return http.StatusInternalServerError, errorBody{Error: msgInternal}, "request failed"
	}
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
