package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/csrf"
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
	return &errBadRequest{msg: fmt.Sprintf("request body is larger than %d bytes", limit)}
}

// invalidFields is the 400 for a body whose fields are wrong: each problem by field name.
func invalidFields(problems map[string]string) error {
	return &errBadRequest{msg: "request body has invalid fields", problems: problems}
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
			return v, &errBadRequest{msg: "request body is empty; send a JSON object"}
		default:
			return v, &errBadRequest{msg: "request body is not valid JSON for this endpoint: " + err.Error()}
		}
	}
	if dec.More() {
		return v, &errBadRequest{msg: "request body has data after the JSON object"}
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

// errorBody is the JSON every error answer carries. OrderID names an order the buyer
// should see instead (a basket that was just ordered). Code tells apart refusals a
// program acts on: "csrf_token" (a 403 for a missing, stale or foreign CSRF token: fetch
// a new token and repeat the call once) and "cross_site" (a 403 for a request from
// another site: a new token does not help).
type errorBody struct {
	Error    string            `json:"error"`
	Code     string            `json:"code,omitempty"`
	Problems map[string]string `json:"problems,omitempty"`
	OrderID  string            `json:"order_id,omitempty"`
	// Lines are the lines an add of many refused (409), each with its problem.
	Lines []lineProblem `json:"lines,omitempty"`
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

// writeError maps an error to its status and a message safe to show. It is the one
// place that decides status codes; a 500 never carries err.Error().
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var bad *errBadRequest
	var tooLarge *errTooLarge
	var refused *shoperr.ConflictError
	var unknown *shoperr.NotFoundError
	var field *shoperr.FieldError
	var lines *shoperr.LinesError
	switch {
	case errors.As(err, &bad):
		encode(w, http.StatusBadRequest, errorBody{Error: bad.msg, Problems: bad.problems})
	case errors.As(err, &tooLarge):
		encode(w, http.StatusRequestEntityTooLarge, errorBody{Error: tooLarge.msg})
	case errors.As(err, &field):
		encode(w, http.StatusBadRequest, errorBody{Error: "request body has invalid fields", Problems: map[string]string{field.Field: field.Problem}})
	case errors.As(err, &lines):
		body := errorBody{Error: err.Error(), Lines: make([]lineProblem, len(lines.Lines))}
		for i, l := range lines.Lines {
			body.Lines[i] = *lineProblemOf(l.LineProblem)
			body.Lines[i].Index, body.Lines[i].SKU = &l.Index, l.SKU
		}
		encode(w, http.StatusConflict, body)
	case errors.As(err, &refused):
		// err's own text: the refusal with what a caller added ("line 3 (GC101-00001): …").
		encode(w, http.StatusConflict, errorBody{Error: err.Error(), OrderID: refused.OrderID})
	case errors.As(err, &unknown):
		encode(w, http.StatusNotFound, errorBody{Error: unknown.Msg})
	case errors.Is(err, auth.ErrInvalidToken):
		encode(w, http.StatusUnauthorized, errorBody{Error: "sign-in token missing, invalid or expired; sign in again"})
	case errors.Is(err, errStaffOnly):
		encode(w, http.StatusForbidden, errorBody{Error: "Staff only: this part of the shop is for the shop's own staff. Ask the shop to grant you staff access, then sign in again.", Code: codeStaffOnly})
	case errors.Is(err, errNeedsRecentSignIn):
		encode(w, http.StatusForbidden, errorBody{Error: "sign in again with your password to change your email (a sign-in of the last 5 minutes)", Code: codeRecentSignIn})
	case errors.Is(err, csrf.ErrCrossSite):
		encode(w, http.StatusForbidden, errorBody{Error: "this request did not come from this shop's pages", Code: codeCrossSite})
	case isCSRF(err):
		encode(w, http.StatusForbidden, errorBody{Error: "this form has expired or did not come from this shop; reload the page and try again", Code: codeCSRFToken})
	case errors.Is(err, store.ErrNotFound):
		encode(w, http.StatusNotFound, errorBody{Error: "not found"})
	case errors.Is(err, store.ErrUnavailable):
		log.ErrorContext(r.Context(), "store unavailable", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", err)
		encode(w, http.StatusServiceUnavailable, errorBody{Error: "The shop's database did not answer in time. Please try again in a moment."})
	case errors.Is(err, auth.ErrKeysUnavailable):
		log.ErrorContext(r.Context(), "token keys unavailable", "request_id", RequestID(r.Context()), "err", err)
		encode(w, http.StatusServiceUnavailable, errorBody{Error: "sign-in service temporarily unavailable; try again shortly"})
	default:
		log.ErrorContext(r.Context(), "request failed", "request_id", RequestID(r.Context()), "path", r.URL.Path, "err", err)
		encode(w, http.StatusInternalServerError, errorBody{Error: "something went wrong on our side; please try again"})
	}
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
