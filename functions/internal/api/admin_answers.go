package api

import (
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/publish"
	"github.com/tradeshop/functions/internal/store"
)

// The back office's answers (/api/admin/*, docs/back-office.md "API"), every one of them
// here: the wire contract of the staff pages, kept apart from the store's and the
// domain's structs. They keep the one wire contract of every answer (docs/api.md "The
// wire contract"; answerTypes lists them): keys are snake_case, times are Unix ms
// (unixMillis, 0 or null for none, as each type says), money is an int64 of pence whose key
// names the amount, never a _pence suffix.

// staffAnswer is a member of staff: who is signed in (GET /api/admin/me), and who an
// audit entry names.
type staffAnswer struct {
	UID   string `json:"uid"`
	Email string `json:"email"`
}

// auditAnswer is one audit entry as staff see it: before and after hold the fields the
// change set, as the entry was written; each is an object, {} where there was nothing
// (before a coupon was created).
type auditAnswer struct {
	At     unixMillis     `json:"at"`
	Who    staffAnswer    `json:"who"`
	Action string         `json:"action"`
	Before map[string]any `json:"before"`
	After  map[string]any `json:"after"`
}

func auditAnswers(list []orders.AuditEntry) []auditAnswer {
	out := make([]auditAnswer, len(list))
	for i, e := range list {
		out[i] = auditAnswer{At: unixMillisOf(e.At), Who: staffAnswer(e.By), Action: e.Action, Before: fieldsOrNone(e.Before),
			After: fieldsOrNone(e.After)}
	}
	return out
}

// adminOrderSummary is one order in the staff list.
type adminOrderSummary struct {
	ID            string     `json:"id"`
	PlacedAt      unixMillis `json:"placed_at"`
	Status        string     `json:"status"`
	Version       int        `json:"version"`
	Company       string     `json:"company"`
	Business      string     `json:"business"`
	Email         string     `json:"email"`
	PORef         string     `json:"po_ref"`
	PaymentMethod string     `json:"payment_method"`
	Paid          bool       `json:"paid"`
	TotalIncVAT   int64      `json:"total_inc_vat"`
	Lines         int        `json:"lines"`
}

// fieldsOrNone is an audit entry's fields, none as {} rather than null.
func fieldsOrNone(fields map[string]any) map[string]any {
	if fields == nil {
		return map[string]any{}
	}
	return fields
}

func summaryOf(o orders.Order) adminOrderSummary {
	s := adminOrderSummary{ID: o.ID, PlacedAt: unixMillisOf(o.PlacedAt), Status: o.Status, Version: int(o.Version), Email: o.Email,
		Paid: o.Paid(), TotalIncVAT: o.TotalIncVAT, Lines: len(o.Lines)}
	if o.Billing != nil {
		s.Company, s.Business, s.PORef, s.PaymentMethod = o.Billing.Company, o.Billing.Company, o.Billing.PORef, o.Billing.PaymentMethod
	}
	return s
}

// adminOrdersPage is a page of the staff's order list; next is the cursor of the next
// page, null on the last.
type adminOrdersPage struct {
	Orders []adminOrderSummary `json:"orders"`
	Next   *string             `json:"next"`
}

// adminOrderAnswer is an order as staff see it: the buyer's answer and who placed it.
type adminOrderAnswer struct {
	orderAnswer
	UID      string `json:"uid"`
	Email    string `json:"email"`
	Business string `json:"business"`
	Version  int    `json:"version"`
}

func adminOrderOf(o orders.Order) adminOrderAnswer {
	a := adminOrderAnswer{orderAnswer: orderAnswerOf(o), UID: o.UID, Email: o.Email, Version: int(o.Version)}
	if o.Billing != nil {
		a.Business = o.Billing.Company
	}
	return a
}

// adminOrderPage is one order with its audit trail.
type adminOrderPage struct {
	Order adminOrderAnswer `json:"order"`
	Audit []auditAnswer    `json:"audit"`
}

// adminAccountAnswer is a trade account as staff see it. Version is updated_at: a change
// names it, and is refused if the account changed since. credit_limit is null when no
// limit is set; owed is what the account's unpaid orders come to; dsc is the account's
// own discounts as a JSON object ("" for none); price_group the id of its price group
// ("" for none); billing is the buyer's own shape, null
// before the billing step saved one.
type adminAccountAnswer struct {
	UID               string         `json:"uid"`
	Business          string         `json:"business"`
	Email             string         `json:"email"`
	Telephone         string         `json:"telephone"`
	ApprovedForCredit bool           `json:"approved_for_credit"`
	CreditLimit       *int64         `json:"credit_limit"`
	Owed              int64          `json:"owed"`
	DSC               string         `json:"dsc"`
	PriceGroup        string         `json:"price_group"`
	Version           int            `json:"version"`
	UpdatedAt         unixMillis     `json:"updated_at"`
	Billing           *billingAnswer `json:"billing"`
}

func accountAnswerOf(p store.Profile) adminAccountAnswer {
	a := adminAccountAnswer{UID: p.UID, Business: p.Business, Email: p.Email, Telephone: p.Telephone,
		ApprovedForCredit: p.ApprovedForCredit, CreditLimit: p.CreditLimit, Owed: p.Owed, DSC: p.DSC, PriceGroup: p.PriceGroup,
		Version: int(p.UpdatedAt.UnixMilli()), UpdatedAt: unixMillisOf(p.UpdatedAt)}
	if p.Billing != nil {
		b := billingAnswerOfStored(*p.Billing)
		a.Billing = &b
	}
	return a
}

// adminAccountsPage is a page of the staff's account list; next as adminOrdersPage's.
type adminAccountsPage struct {
	Accounts []adminAccountAnswer `json:"accounts"`
	Next     *string              `json:"next"`
}

// adminAccountPage is one account with its audit trail.
type adminAccountPage struct {
	Account adminAccountAnswer `json:"account"`
	Audit   []auditAnswer      `json:"audit"`
}

// adminCouponAnswer is a coupon as staff see it: amount (a fixed coupon's) and min_spend
// in pence, times Unix ms (0 for none), limits 0 for none, used the orders that carry it
// now.
type adminCouponAnswer struct {
	ID              string     `json:"id"`
	Description     string     `json:"description"`
	Kind            string     `json:"kind" ts:"'percent' | 'fixed'"`
	Percent         int        `json:"percent"`
	Amount          int64      `json:"amount"`
	MinSpend        int64      `json:"min_spend"`
	ValidFrom       unixMillis `json:"valid_from"`
	ValidTo         unixMillis `json:"valid_to"`
	UsageLimit      int        `json:"usage_limit"`
	PerAccountLimit int        `json:"per_account_limit"`
	Used            int        `json:"used"`
	AccountUID      string     `json:"account_uid"`
	Version         int        `json:"version"`
}

func couponAnswerOf(c store.StaffCoupon) adminCouponAnswer {
	return adminCouponAnswer{ID: c.ID, Description: c.Description, Kind: c.Kind, Percent: c.Percent, Amount: c.AmountPence,
		MinSpend: c.MinSpendPence, ValidFrom: unixMilliOrZero(c.ValidFrom), ValidTo: unixMilliOrZero(c.ValidTo), UsageLimit: c.UsageLimit,
		PerAccountLimit: c.PerAccountLimit, Used: c.Used, AccountUID: c.AccountUID, Version: int(c.Version)}
}

// adminCouponsPage is every coupon, by id.
type adminCouponsPage struct {
	Coupons []adminCouponAnswer `json:"coupons"`
}

// adminCouponPage is one coupon with its audit trail.
type adminCouponPage struct {
	Coupon adminCouponAnswer `json:"coupon"`
	Audit  []auditAnswer     `json:"audit"`
}

// adminProductAnswer is a product's stock as staff see it. Status is "active" or
// "discontinued": staff still read and change a discontinued product's stock, though
// the shop no longer shows or sells it.
type adminProductAnswer struct {
	SKU      string `json:"sku"`
	Name     string `json:"name"`
	PackSize int    `json:"pack_size"`
	Stock    int    `json:"stock"`
	Status   string `json:"status" ts:"'active' | 'discontinued'"`
	// Forward is the product's forward marking (null for an ordinary product).
	Forward *adminForwardAnswer `json:"forward"`
}

// adminProductOf is p as staff see it; a product without a status (written before
// statuses) is active.
func adminProductOf(p catalogue.Product) adminProductAnswer {
	status := catalogue.StatusActive
	if p.Discontinued() {
		status = catalogue.StatusDiscontinued
	}
	return adminProductAnswer{SKU: p.SKU, Name: p.Name, PackSize: p.PackSize, Stock: p.Stock, Status: status, Forward: adminForwardOf(p.Forward)}
}

// adminProductPage is one product's stock with its audit trail.
type adminProductPage struct {
	Product adminProductAnswer `json:"product"`
	Audit   []auditAnswer      `json:"audit"`
}

// catalogueImageAnswer is an uploaded picture published in the pages' two sizes, by the
// paths the import's image cells name.
type catalogueImageAnswer struct {
	Name  string `json:"name"`
	Small string `json:"small"`
	Large string `json:"large"`
}

// publishAnswer is a publish from the back office as it stands: state idle, running,
// done or failed (publish.Idle …); started_at and finished_at Unix ms, null before it
// started or finished; log the command's last lines.
type publishAnswer struct {
	State      string      `json:"state" ts:"'idle' | 'running' | 'done' | 'failed'"`
	StartedAt  *unixMillis `json:"started_at"`
	FinishedAt *unixMillis `json:"finished_at"`
	By         string      `json:"by"`
	BuildID    string      `json:"build_id"`
	Message    string      `json:"message"`
	Log        []string    `json:"log"`
}

// publishRunningAnswer is the 409 of a publish asked for while one runs: the error and
// the publish that runs, as publishAnswer gives it.
type publishRunningAnswer struct {
	errorBody
	publishAnswer
}

func publishAnswerOf(s publish.Status) publishAnswer {
	ms := func(t *time.Time) *unixMillis {
		if t == nil || t.IsZero() {
			return nil
		}
		v := unixMillisOf(*t)
		return &v
	}
	a := publishAnswer{State: s.State, StartedAt: ms(s.StartedAt), FinishedAt: ms(s.FinishedAt), By: s.By, BuildID: s.BuildID,
		Message: s.Message, Log: s.Log}
	if a.Log == nil {
		a.Log = []string{}
	}
	return a
}

// unixMilliOrZero is t in Unix ms, 0 for none.
func unixMilliOrZero(t time.Time) unixMillis {
	if t.IsZero() {
		return 0
	}
	return unixMillisOf(t)
}

// timeOfUnixMilli is the time of Unix ms ms, none for 0.
func timeOfUnixMilli(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// planAnswer is the answer of a catalogue check or apply.
type planAnswer struct {
	Plan importPlanAnswer `json:"plan"`
}

// importPlanAnswer is what a catalogue check or apply found (catimport.Plan): the job
// that names the import, the counts of its changes and the first of them (at most 50).
type importPlanAnswer struct {
	Job               string               `json:"job"`
	Full              bool                 `json:"full"`
	Rows              int                  `json:"rows"`
	New               int                  `json:"new"`
	Changed           int                  `json:"changed"`
	Discontinued      int                  `json:"discontinued"`
	Unchanged         int                  `json:"unchanged"`
	NewRanges         int                  `json:"new_ranges"`
	ChangedRanges     int                  `json:"changed_ranges"`
	NewCategories     int                  `json:"new_categories"`
	ChangedCategories int                  `json:"changed_categories"`
	First             []importChangeAnswer `json:"first"`
}

// importChangeAnswer is what an import does to one product: line is the file's line (0,
// and left out, for a product discontinued because the file leaves it out); fields the
// ones a change moves.
type importChangeAnswer struct {
	Line   int                       `json:"line,omitempty"`
	SKU    string                    `json:"sku"`
	Name   string                    `json:"name"`
	Kind   string                    `json:"kind" ts:"'new' | 'changed' | 'discontinued'"`
	Fields []importFieldChangeAnswer `json:"fields,omitempty"`
}

// importFieldChangeAnswer is one field of a product an import changes, as text.
type importFieldChangeAnswer struct {
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
}

func importPlanOf(pl *catimport.Plan) importPlanAnswer {
	a := importPlanAnswer{Job: pl.Job, Full: pl.Full, Rows: pl.Rows, New: pl.New, Changed: pl.Changed, Discontinued: pl.Discontinued,
		Unchanged: pl.Unchanged, NewRanges: pl.NewRanges, ChangedRanges: pl.ChangedRanges, NewCategories: pl.NewCategories,
		ChangedCategories: pl.ChangedCategories, First: make([]importChangeAnswer, len(pl.First))}
	for i, c := range pl.First {
		a.First[i] = importChangeAnswer{Line: c.Line, SKU: c.SKU, Name: c.Name, Kind: c.Kind}
		for _, f := range c.Fields {
			a.First[i].Fields = append(a.First[i].Fields, importFieldChangeAnswer(f))
		}
	}
	return a
}

// adminHealthAnswer is the Health page (GET /api/admin/health): when it was read, the
// app errors the site reported (at most 100 groups, most recently seen first), the email
// outbox, the large orders pending, the orders waiting for their invoice, and the last
// catalogue import (null when there has been none).
type adminHealthAnswer struct {
	CheckedAt       unixMillis            `json:"checked_at"`
	AppErrors       []appErrorGroupAnswer `json:"app_errors"`
	Outbox          outboxHealthAnswer    `json:"outbox"`
	OrdersPending   backlogAnswer         `json:"orders_pending"`
	OrdersToInvoice backlogAnswer         `json:"orders_to_invoice"`
	LastImport      *lastImportAnswer     `json:"last_import"`
}

// appErrorGroupAnswer is the reports of one kind, name, message and path: how many,
// when first and last seen, and the HTTP status (0 for none) and site build of the last.
type appErrorGroupAnswer struct {
	Kind      string     `json:"kind" ts:"'chunk' | 'fatal' | 'unhandled' | 'hydration' | 'api' | 'basket' | 'other'"`
	Name      string     `json:"name"`
	Message   string     `json:"message"`
	Path      string     `json:"path"`
	Status    int        `json:"status"`
	Count     int        `json:"count"`
	FirstSeen unixMillis `json:"first_seen"`
	LastSeen  unixMillis `json:"last_seen"`
	Build     string     `json:"build"`
}

// outboxHealthAnswer is the email outbox: the emails waiting (pending or being sent),
// those failed (parked after their last attempt), and when the oldest waiting one was
// written (null when none wait). More says the outbox holds more than the 1,000 counted.
type outboxHealthAnswer struct {
	Waiting         int         `json:"waiting"`
	Failed          int         `json:"failed"`
	More            bool        `json:"more"`
	OldestWaitingAt *unixMillis `json:"oldest_waiting_at"`
}

// backlogAnswer is orders waiting: how many (at most 1,000 counted; more says there are
// more) and when the oldest was placed (null when none wait).
type backlogAnswer struct {
	Count    int         `json:"count"`
	More     bool        `json:"more"`
	OldestAt *unixMillis `json:"oldest_at"`
}

// lastImportAnswer is the last catalogue import: when, by whom (the staff member's email,
// else uid), and a sentence of what it changed.
type lastImportAnswer struct {
	At      unixMillis `json:"at"`
	By      string     `json:"by"`
	Summary string     `json:"summary"`
}

// priceGroupAnswer is a price group as the back office lists it: rows is how many
// products, categories and ranges its rules set (the rows of its CSV); version is what a
// rename or an import's apply names, refused if the group changed since.
type priceGroupAnswer struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Rows      int        `json:"rows"`
	Version   int        `json:"version"`
	UpdatedAt unixMillis `json:"updated_at"`
}

// adminPriceGroupsPage is every price group, by name.
type adminPriceGroupsPage struct {
	Groups []priceGroupAnswer `json:"groups"`
}

// adminPriceGroupPage is one price group, created or renamed.
type adminPriceGroupPage struct {
	Group priceGroupAnswer `json:"group"`
}

// priceGroupProblemAnswer is one thing wrong with a price group file: its line (1 the
// header, 0 the whole file), its column ("" for the whole line) and a whole sentence.
type priceGroupProblemAnswer struct {
	Line    int    `json:"line"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// priceGroupImportAnswer is a price group file checked (and applied, when asked and it
// has no problems): its problems (at most 200 listed; problem_count in all), its rows,
// what it adds, changes and removes against the group, whether it was applied, and the
// group as it is after.
type priceGroupImportAnswer struct {
	Problems     []priceGroupProblemAnswer `json:"problems"`
	ProblemCount int                       `json:"problem_count"`
	Rows         int                       `json:"rows"`
	Added        int                       `json:"added"`
	Changed      int                       `json:"changed"`
	Removed      int                       `json:"removed"`
	Applied      bool                      `json:"applied"`
	Group        priceGroupAnswer          `json:"group"`
}
