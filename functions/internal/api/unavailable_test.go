package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/store"
)

// A store that did not answer in time is a 503 with a sentence the buyer can act on
// (the pages show it with Try again), logged with the cause; never a 500.
func TestStoreUnavailableIs503WithASentence(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logged, nil))
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/api/basket", nil)
	writeError(w, r, log, fmt.Errorf("read basket: %w", fmt.Errorf("GetItem: %w", store.ErrUnavailable)))
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", w.Code)
	}
	var body errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if want := "The shop's database did not answer in time. Please try again in a moment."; body.Error != want {
		t.Errorf("error = %q, want %q", body.Error, want)
	}
	if !strings.Contains(logged.String(), "store unavailable") || !strings.Contains(logged.String(), "read basket") {
		t.Errorf("log = %q, want the failure and its cause", logged.String())
	}
}

// A request whose caller went away (its context cancelled, and the work with it) is no
// failure of the shop's: 499, logged as abandoned, never a 500 or an ERROR line, so a
// buyer leaving a page raises no 5xx alarm.
func TestAbandonedRequestIsNoServerFailure(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logged, nil))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/api/getProfile", nil).WithContext(ctx)
	writeError(w, r, log, fmt.Errorf("get profile u1: operation error DynamoDB: GetItem: %w", context.Canceled))
	if w.Code != statusClientClosed {
		t.Errorf("status %d, want %d", w.Code, statusClientClosed)
	}
	if strings.Contains(logged.String(), `"level":"ERROR"`) || !strings.Contains(logged.String(), "abandoned") {
		t.Errorf("log = %s", logged.String())
	}
	// The same error while the caller still waits is the shop's own failure.
	w = httptest.NewRecorder()
	writeError(w, httptest.NewRequest("POST", "/api/getProfile", nil), log, fmt.Errorf("get profile u1: %w", context.Canceled))
	if w.Code != http.StatusInternalServerError {
		t.Errorf("status %d for a cancel the caller did not make, want 500", w.Code)
	}
}
