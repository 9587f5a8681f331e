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
// domain's structs. Keys are snake_case, times are Unix ms (0 or null for none, as each
// type says), money is integer pence in a key ending _pence.

// adminMeAnswer is who the signed-in member of staff is (GET /api/admin/me).
type adminMeAnswer struct {
	UID   string `json:"uid"`
	Email string `json:"email"`
}

// staffAnswer is a member of staff as an audit entry names them.
type staffAnswer struct {
	UID   string `json:"uid"`
	Email string `json:"email"`
}

// auditAnswer is one audit entry as staff see it: before and after hold the fields the
// change set, as the entry was written.
type auditAnswer struct {
	At     int64          `json:"at"`
	Who    staffAnswer    `json:"who"`
	Action string         `json:"action"`
	Before map[string]any `json:"before"`
	After  map[string]any `json:"after"`
}

func auditAnswers(list []orders.AuditEntry) []auditAnswer {
	out := make([]auditAnswer, len(list))
	for i, e := range list {
		out[i] = auditAnswer{At: e.At.UnixMilli(), Who: staffAnswer(e.By), Action: e.Action, Before: e.Before, After: e.After}
	}
	return out
}

// adminOrderSummary is one order in the staff list.
type adminOrderSummary struct {
	ID               string `json:"id"`
	PlacedAt         int64  `json:"placed_at"`
	Status           string `json:"status"`
	Version          int64  `json:"version"`
	Company          string `json:"company"`
	Business         string `json:"business"`
	Email            string `json:"email"`
	PORef            string `json:"po_ref"`
	PaymentMethod    string `json:"payment_method"`
	Paid             bool   `json:"paid"`
	TotalIncVATPence int64  `json:"total_inc_vat_pence"`
	Lines            int    `json:"lines"`
}

func summaryOf(o orders.Order) adminOrderSummary {
	s := adminOrderSummary{ID: o.ID, PlacedAt: o.PlacedAt.UnixMilli(), Status: o.Status, Version: o.Version, Email: o.Email,
		Paid: o.Paid(), TotalIncVATPence: o.TotalIncVAT, Lines: len(o.Lines)}
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
	Version  int64  `json:"version"`
}

func adminOrderOf(o orders.Order) adminOrderAnswer {
	a := adminOrderAnswer{orderAnswer: orderAnswerOf(o), UID: o.UID, Email: o.Email, Version: o.Version}
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

// adminAddressAnswer is a postal address as staff see it.
type adminAddressAnswer struct {
	Line1    string `json:"line1"`
	Line2    string `json:"line2"`
	Town     string `json:"town"`
	Postcode string `json:"postcode"`
}

// adminBillingAnswer is the billing details an account saved, as staff see them.
type adminBillingAnswer struct {
	Company       string             `json:"company"`
	Contact       string             `json:"contact"`
	Address       adminAddressAnswer `json:"address"`
	VATNumber     string             `json:"vat_number"`
	PORef         string             `json:"po_ref"`
	PaymentMethod string             `json:"payment_method"`
}

func adminBillingOf(b *store.Billing) *adminBillingAnswer {
	if b == nil {
		return nil
	}
	return &adminBillingAnswer{Company: b.Company, Contact: b.Contact, Address: adminAddressAnswer(b.Address), VATNumber: b.VATNumber,
		PORef: b.PORef, PaymentMethod: b.PaymentMethod}
}

// adminAccountAnswer is a trade account as staff see it. Version is updated_at: a change
// names it, and is refused if the account changed since. credit_limit_pence is null when
// no limit is set; dsc is the account's own discounts as a JSON object ("" for none).
type adminAccountAnswer struct {
	UID               string              `json:"uid"`
	Business          string              `json:"business"`
	Email             string              `json:"email"`
	Telephone         string              `json:"telephone"`
	ApprovedForCredit bool                `json:"approved_for_credit"`
	CreditLimitPence  *int64              `json:"credit_limit_pence"`
	OwedPence         int64               `json:"owed_pence"`
	DSC               string              `json:"dsc"`
	Version           int64               `json:"version"`
	UpdatedAt         int64               `json:"updated_at"`
	Billing           *adminBillingAnswer `json:"billing"`
}

func accountAnswerOf(p store.Profile) adminAccountAnswer {
	return adminAccountAnswer{UID: p.UID, Business: p.Business, Email: p.Email, Telephone: p.Telephone,
		ApprovedForCredit: p.ApprovedForCredit, CreditLimitPence: p.CreditLimit, OwedPence: p.Owed, DSC: p.DSC,
		Version: p.UpdatedAt.UnixMilli(), UpdatedAt: p.UpdatedAt.UnixMilli(), Billing: adminBillingOf(p.Billing)}
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

// adminCouponAnswer is a coupon as staff see it: times Unix ms (0 for none), limits 0
// for none, used the orders that carry it now.
type adminCouponAnswer struct {
	ID              string `json:"id"`
	Description     string `json:"description"`
	Kind            string `json:"kind"`
	Percent         int    `json:"percent"`
	AmountPence     int64  `json:"amount_pence"`
	MinSpendPence   int64  `json:"min_spend_pence"`
	ValidFrom       int64  `json:"valid_from"`
	ValidTo         int64  `json:"valid_to"`
	UsageLimit      int    `json:"usage_limit"`
	PerAccountLimit int    `json:"per_account_limit"`
	Used            int    `json:"used"`
	AccountUID      string `json:"account_uid"`
	Version         int64  `json:"version"`
}

func couponAnswerOf(c store.StaffCoupon) adminCouponAnswer {
	return adminCouponAnswer{ID: c.ID, Description: c.Description, Kind: c.Kind, Percent: c.Percent, AmountPence: c.AmountPence,
		MinSpendPence: c.MinSpendPence, ValidFrom: unixMilliOrZero(c.ValidFrom), ValidTo: unixMilliOrZero(c.ValidTo), UsageLimit: c.UsageLimit,
		PerAccountLimit: c.PerAccountLimit, Used: c.Used, AccountUID: c.AccountUID, Version: c.Version}
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
	Status   string `json:"status"`
}

// adminProductOf is p as staff see it; a product without a status (written before
// statuses) is active.
func adminProductOf(p catalogue.Product) adminProductAnswer {
	status := catalogue.StatusActive
	if p.Discontinued() {
		status = catalogue.StatusDiscontinued
	}
	return adminProductAnswer{SKU: p.SKU, Name: p.Name, PackSize: p.PackSize, Stock: p.Stock, Status: status}
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
	State      string   `json:"state"`
	StartedAt  *int64   `json:"started_at"`
	FinishedAt *int64   `json:"finished_at"`
	By         string   `json:"by"`
	BuildID    string   `json:"build_id"`
	Message    string   `json:"message"`
	Log        []string `json:"log"`
}

func publishAnswerOf(s publish.Status) publishAnswer {
	ms := func(t *time.Time) *int64 {
		if t == nil || t.IsZero() {
			return nil
		}
		v := t.UnixMilli()
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
func unixMilliOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
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
	Kind   string                    `json:"kind"`
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
