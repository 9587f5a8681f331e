package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/coupons"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/demand"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/payments"
	"github.com/tradeshop/functions/internal/pricegroups"
	"github.com/tradeshop/functions/internal/statements"
	"github.com/tradeshop/functions/internal/stock"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/text"
	"github.com/tradeshop/functions/internal/tradeaccounts"
)

// The back office's endpoints (/api/admin/*, docs/back-office.md): staff only. Each one
// is behind the CSRF checks (reads included), then verifies the ID token and refuses a
// token without the staff claim with 403 before it reads or writes anything.

// errStaffOnly refuses a signed-in user who is not staff.
var errStaffOnly = errors.New("staff only")

// staffOf answers who a verified token is as staff, or errStaffOnly.
func staffOf(who auth.Claims) (orders.Staff, error) {
	if !who.Staff {
		return orders.Staff{}, errStaffOnly
	}
	return orders.Staff{UID: who.UID, Email: who.Email}, nil
}

// staffGate is what every back-office endpoint checks before it reads or writes: the
// CSRF checks, the ID token and the staff claim. Log is where the endpoint's failures go.
type staffGate struct {
	Log    *slog.Logger
	CSRF   *csrf.Protector
	Verify auth.Verifier
}

// staffGet is a staff read: CSRF, the bearer token, the staff claim.
func staffGet(g staffGate, next func(w http.ResponseWriter, r *http.Request, by orders.Staff)) http.Handler {
	return protect(g.Log, g.CSRF, withBearer(g.Log, g.Verify, func(w http.ResponseWriter, r *http.Request, who auth.Claims) {
		by, err := staffOf(who)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		w.Header().Set("X-Robots-Tag", "noindex")
		next(w, r, by)
	}))
}

// staffPost is a staff write: CSRF, then the body's token and the staff claim (so a
// buyer is refused with 403 whatever else the body holds), then the body validated.
func staffPost[T tokenBody](g staffGate, next func(w http.ResponseWriter, r *http.Request, by orders.Staff, body T)) http.Handler {
	return staffPostAtMost(g, maxBodyBytes, bodyTooLarge, next)
}

// staffPostAtMost is staffPost for a body of at most limit bytes; a larger one answers
// tooLarge(limit).
func staffPostAtMost[T tokenBody](g staffGate, limit int64, tooLarge func(int64) error,
	next func(w http.ResponseWriter, r *http.Request, by orders.Staff, body T)) http.Handler {
	return protect(g.Log, g.CSRF, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
		if err != nil {
			writeError(w, r, g.Log, tooLarge(limit))
			return
		}
		var tok struct {
			Token string `json:"token"`
		}
		_ = json.Unmarshal(raw, &tok) // a body that is not JSON has no token: 401
		who, err := g.Verify.Verify(r.Context(), tok.Token)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		by, err := staffOf(who)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		body, err := decodeAtMost[T](r, limit, tooLarge)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		next(w, r, by, body)
	}))
}

// catalogueDeps is what the catalogue's staff endpoints use: the gate, the store's
// catalogue (import and export), the media store of uploaded pictures (nil: none here)
// and the clock.
type catalogueDeps struct {
	staffGate
	Store catalogueStore
	Media media.Store
	Now   func() time.Time
	// Restock hears of the products an import wrote (the back-in-stock alerts).
	Restock orders.Restocker
}

// catalogueStore is the store's catalogue as the import and the export use it.
type catalogueStore interface {
	catimport.Store
	Catalogue(ctx context.Context) ([]catalogue.Range, []catalogue.Category, []catalogue.Product, error)
}

// publishDeps is what the publish endpoints use: the gate and the publisher (nil where
// the stack cannot publish).
type publishDeps struct {
	staffGate
	Publisher Publisher
}

// adminEndpoints lists the back office's endpoints.
func adminEndpoints(d Deps, life orders.Lifecycle) []Endpoint {
	staff := staffGate{Log: d.Log, CSRF: d.CSRF, Verify: d.Verifier}
	accounts := tradeaccounts.Service{Store: d.Store, Now: d.Now}
	offers := coupons.Service{Store: d.Store, Now: d.Now}
	stocks := stock.Service{Store: d.Store, Now: d.Now, Restock: AlertsOf(d)}
	pays := payments.Service{Store: d.Store, Now: d.Now}
	cat := catalogueDeps{staffGate: staff, Store: d.Store, Media: d.Media, Now: d.Now, Restock: AlertsOf(d)}
	pub := publishDeps{staffGate: staff, Publisher: d.Publisher}
	groups := pricegroups.Service{Store: d.Store, Now: d.Now}
	receipts := receivingService(d)
	demands := demand.Service{Store: d.Store}
	return []Endpoint{
		{"adminMe", "GET /api/admin/me", handleAdminMe(staff)},
		{"adminOrders", "GET /api/admin/orders", handleAdminOrders(staff, d.Store)},
		{"adminOrder", "GET /api/admin/orders/{id}", handleAdminOrder(staff, d.Store)},
		{"adminOrderAction", "POST /api/admin/orders/{id}/action", handleAdminOrderAction(staff, d.Store, life)},
		{"adminOrderCredit", "POST /api/admin/orders/{id}/credit", handleAdminOrderCredit(staff, d.Store, life)},
		{"adminExport", "GET /api/admin/export", handleAdminExport(staff, d.Store, payments.Exports{Store: d.Store, Loc: london})},
		{"adminAccounts", "GET /api/admin/accounts", handleAdminAccounts(staff, accounts)},
		{"adminAccount", "GET /api/admin/accounts/{uid}", handleAdminAccount(staff, accounts)},
		{"adminAccountUpdate", "POST /api/admin/accounts/{uid}", handleAdminAccountUpdate(staff, accounts)},
		{"adminLedger", "GET /api/admin/accounts/{uid}/ledger", handleAdminLedger(staff, pays)},
		{"adminPaymentRecord", "POST /api/admin/accounts/{uid}/payments", handleAdminPaymentRecord(staff, pays)},
		{"adminPaymentAllocate", "POST /api/admin/accounts/{uid}/payments/{id}/allocate", handleAdminPaymentAllocate(staff, pays)},
		{"adminRefund", "POST /api/admin/accounts/{uid}/refunds", handleAdminRefund(staff, pays)},
		// Credit hold (issue 35, item 5).
		{"adminCreditHold", "GET /api/admin/accounts/{uid}/credit-hold", handleAdminCreditHold(staff, creditHolds(d))},
		{"adminCreditHoldLift", "POST /api/admin/accounts/{uid}/credit-hold/lift", handleAdminLiftCreditHold(staff, creditHolds(d))},
		{"adminCoupons", "GET /api/admin/coupons", handleAdminCoupons(staff, offers)},
		{"adminCouponSave", "POST /api/admin/coupons", handleAdminCouponSave(staff, offers, true)},
		{"adminCouponSave", "POST /api/admin/coupons/{id}", handleAdminCouponSave(staff, offers, false)},
		{"adminProduct", "GET /api/admin/products/{sku}", handleAdminProduct(staff, stocks)},
		{"adminStock", "POST /api/admin/products/{sku}/stock", handleAdminStock(staff, stocks)},
		// Forward products and their demand (issue 38, items 1 and 6; admin_forward.go).
		{"adminForward", "POST /api/admin/products/{sku}/forward", handleAdminForward(staff, stocks)},
		{"adminForwardList", "GET /api/admin/forward", handleAdminForwardList(staff, demands)},
		{"adminForwardDemand", "GET /api/admin/forward/demand", handleAdminDemand(staff, demands)},
		{"adminForwardDemand", "GET /api/admin/forward/demand.csv", handleAdminDemandCSV(staff, demands, d.Now)},
		{"adminCatalogueCheck", "POST /api/admin/catalogue/check", handleCatalogueCheck(cat)},
		{"adminCatalogueApply", "POST /api/admin/catalogue/apply", handleCatalogueApply(cat)},
		{"adminCatalogueImages", "POST /api/admin/catalogue/images", handleCatalogueImages(cat)},
		{"adminCatalogueExport", "GET /api/admin/catalogue/export", handleCatalogueExport(cat)},
		{"adminPublish", "POST /api/admin/catalogue/publish", handleAdminPublish(pub)},
		{"adminPublish", "GET /api/admin/catalogue/publish", handleAdminPublishStatus(pub)},
		// Balances and aged debt (issue 35, item 4).
		{"adminBalances", "GET /api/admin/balances", handleAdminBalances(staff, statements.Service{Store: d.Store, Shop: d.Shop, Now: d.Now})},
		{"adminAgedDebt", "GET /api/admin/balances/aged.csv", handleAdminAgedDebt(staff, statements.Service{Store: d.Store, Shop: d.Shop, Now: d.Now})},
		{"adminHealth", "GET /api/admin/health", handleAdminHealth(staff, d.Store, d.Now)},
		// Price groups (issue 37).
		{"adminPriceGroups", "GET /api/admin/price-groups", handleAdminPriceGroups(staff, groups)},
		{"adminPriceGroupSave", "POST /api/admin/price-groups", handleAdminPriceGroupSave(staff, groups)},
		{"adminPriceGroupImport", "POST /api/admin/price-groups/{id}/import", handleAdminPriceGroupImport(staff, groups)},
		{"adminPriceGroupExport", "GET /api/admin/price-groups/{id}/export", handleAdminPriceGroupExport(staff, groups, d.Now)},
		// Receiving forward deliveries (issue 38).
		{"adminReceipts", "GET /api/admin/receipts", handleAdminReceipts(staff, receipts)},
		{"adminReceiptRecord", "POST /api/admin/receipts", handleAdminReceiptRecord(staff, receipts)},
		{"adminReceipt", "GET /api/admin/receipts/{id}", handleAdminReceipt(staff, receipts)},
		{"adminReceiptApply", "POST /api/admin/receipts/{id}/apply", handleAdminReceiptApply(staff, receipts)},
	}
}

// handleAdminMe answers GET /api/admin/me: who the member of staff is (403 for anyone
// else), which is how the pages decide to draw the back office.
func handleAdminMe(g staffGate) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, _ *http.Request, by orders.Staff) {
		encode(w, http.StatusOK, staffAnswer(by))
	})
}

// adminPerPage is the size of a page of the staff's order list (the accounts list's is
// tradeaccounts.PerPage, the same).
const adminPerPage = 25

// adminCursorPrefix starts every decoded staff list cursor.
const adminCursorPrefix = "s1:"

func encodeListCursor(c *store.ListCursor) *string {
	if c == nil {
		return nil
	}
	b, _ := json.Marshal([]string{c.PK, c.SK, c.GSI3SK})
	s := base64.RawURLEncoding.EncodeToString(append([]byte(adminCursorPrefix), b...))
	return &s
}

func decodeListCursor(r *http.Request) (*store.ListCursor, error) {
	if !r.URL.Query().Has("cursor") {
		return nil, nil
	}
	c := r.URL.Query().Get("cursor")
	b, err := base64.RawURLEncoding.DecodeString(c)
	raw, ok := strings.CutPrefix(string(b), adminCursorPrefix)
	var parts []string
	if len(c) > 512 || err != nil || !ok || json.Unmarshal([]byte(raw), &parts) != nil || len(parts) != 3 {
		const problem = "This is not a cursor this shop gave: ask for the first page again (no cursor)."
		return nil, &errBadRequest{msg: problem, problems: map[string]string{"cursor": problem}}
	}
	return &store.ListCursor{PK: parts[0], SK: parts[1], GSI3SK: parts[2]}, nil
}

// queryText reads a search query parameter under the text rule (at most 100 characters).
func queryText(r *http.Request, name string) (string, error) {
	q := r.URL.Query().Get(name)
	f := text.Field{Name: name, Label: "Search", Max: 100}
	var c text.Cleaner
	c.Clean(f, &q)
	if len(c.Problems) > 0 {
		return "", invalidFields(c.Problems)
	}
	return q, nil
}
