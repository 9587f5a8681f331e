package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricegroups"
	"github.com/tradeshop/functions/internal/pricing"
)

// maxPriceGroupBodyBytes bounds a price group import's request: the largest group a
// store item holds (about 5,000 rows) is well under it as CSV.
const maxPriceGroupBodyBytes = 2 << 20

func priceGroupTooLarge(limit int64) error {
	return &errTooLarge{msg: fmt.Sprintf("The file is larger than %d MB, the most a price group file may be; a group holds about 5,000 rows at most.", limit>>20)}
}

// handleAdminPriceGroups answers GET /api/admin/price-groups: every price group, by
// name, as it is now (not the pricing's cache).
func handleAdminPriceGroups(g staffGate, groups pricegroups.Service) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		list, err := groups.List(r.Context())
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		page := adminPriceGroupsPage{Groups: make([]priceGroupAnswer, len(list))}
		for i, s := range list {
			page.Groups[i] = priceGroupAnswer{ID: s.ID, Name: s.Name, Rows: s.Rows, Version: int(s.Version), UpdatedAt: unixMillisOf(s.UpdatedAt)}
		}
		encode(w, http.StatusOK, page)
	})
}

// priceGroupSaveRequest is POST /api/admin/price-groups: version 0 creates the group,
// the version the page read renames it.
type priceGroupSaveRequest struct {
	Token   string `json:"token"`
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version int    `json:"version"`
}

func (p priceGroupSaveRequest) idToken() string { return p.Token }

func (p priceGroupSaveRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if msg := pricegroups.IDProblem(p.ID); msg != "" {
		problems["id"] = msg
	}
	if _, msg := pricegroups.CleanName(p.Name); msg != "" {
		problems["name"] = msg
	}
	if p.Version < 0 {
		problems["version"] = "The version must be 0 for a new group, or the group's version as the page read it."
	}
	return problems
}

// handleAdminPriceGroupSave answers POST /api/admin/price-groups: 201 with a new group
// (409 if its id is taken), or 200 with a group renamed on the version read (409 if it
// changed since, 404 if there is none). The rules and the audit entry are
// pricegroups.Service's.
func handleAdminPriceGroupSave(g staffGate, groups pricegroups.Service) http.Handler {
	return staffPost(g, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req priceGroupSaveRequest) {
		group, created, err := groups.Save(r.Context(), req.ID, req.Name, int64(req.Version), by)
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		encode(w, status, adminPriceGroupPage{Group: priceGroupAnswerOf(group)})
	})
}

// priceGroupImportRequest is POST /api/admin/price-groups/{id}/import: the file, whether
// to apply it, and the group's version the review read.
type priceGroupImportRequest struct {
	Token   string      `json:"token"`
	CSV     *importFile `json:"csv"`
	Apply   bool        `json:"apply"`
	Version int         `json:"version"`
}

func (p priceGroupImportRequest) idToken() string { return p.Token }

func (p priceGroupImportRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	switch {
	case p.CSV == nil:
		problems["csv"] = "The file is required: {name, text}."
	case !strings.HasSuffix(strings.ToLower(p.CSV.Name), ".csv"):
		problems["csv.name"] = "The price group file must be a .csv file."
	}
	if p.Version < 0 || (p.Apply && p.Version == 0) {
		problems["version"] = "The version must be the group's version as the review read it: check the file again."
	}
	return problems
}

// handleAdminPriceGroupImport answers POST /api/admin/price-groups/{id}/import: the
// file's problems by line and column (nothing written), or its rows and what it adds,
// changes and removes; with apply, the group's rules replaced by the file's (409 if the
// group changed since the review).
func handleAdminPriceGroupImport(g staffGate, groups pricegroups.Service) http.Handler {
	return staffPostAtMost(g, maxPriceGroupBodyBytes, priceGroupTooLarge, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req priceGroupImportRequest) {
		res, err := groups.Import(r.Context(), r.PathValue("id"), pricegroups.Import{Name: req.CSV.Name, Text: []byte(req.CSV.Text),
			Apply: req.Apply, Version: int64(req.Version), By: by})
		if err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		a := priceGroupImportAnswer{Problems: make([]priceGroupProblemAnswer, len(res.Problems)), ProblemCount: res.ProblemCount,
			Rows: res.Rows, Added: res.Added, Changed: res.Changed, Removed: res.Removed, Applied: res.Applied, Group: priceGroupAnswerOf(res.Group)}
		for i, p := range res.Problems {
			a.Problems[i] = priceGroupProblemAnswer{Line: p.Line, Column: p.Column, Message: p.Message}
		}
		encode(w, http.StatusOK, a)
	})
}

// handleAdminPriceGroupExport answers GET /api/admin/price-groups/{id}/export: the group
// as its CSV (importing it again changes nothing).
func handleAdminPriceGroupExport(g staffGate, groups pricegroups.Service, now func() time.Time) http.Handler {
	return staffGet(g, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		id := r.PathValue("id")
		var doc bytes.Buffer
		if err := groups.Export(r.Context(), id, &doc); err != nil {
			writeError(w, r, g.Log, err)
			return
		}
		if now == nil {
			now = time.Now
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+PriceGroupExportName(id, now())+`"`)
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(doc.Bytes())
	})
}

// PriceGroupExportName is the file name of a group's export made at t:
// price-group-independents-2026-11-27.csv (the London day).
func PriceGroupExportName(id string, t time.Time) string {
	return "price-group-" + id + "-" + t.In(london).Format(time.DateOnly) + ".csv"
}

func priceGroupAnswerOf(g pricing.Group) priceGroupAnswer {
	return priceGroupAnswer{ID: g.ID, Name: g.Name, Rows: g.Rules.Rows(), Version: int(g.Version), UpdatedAt: unixMillisOf(g.UpdatedAt)}
}
