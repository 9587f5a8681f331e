package pricegroups

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// Store is what the back office's work on price groups needs of the shop's store.
type Store interface {
	// AllPriceGroups reads every group as it is now.
	AllPriceGroups(ctx context.Context) (map[string]pricing.Group, error)
	// PriceGroup reads one group; store.ErrNotFound when there is none.
	PriceGroup(ctx context.Context, id string) (pricing.Group, error)
	// CreatePriceGroup, RenamePriceGroup and ReplacePriceGroupRules write a group with
	// its audit entry: store.ErrChanged when the id is taken or the version moved on.
	CreatePriceGroup(ctx context.Context, w store.PriceGroupWrite) error
	RenamePriceGroup(ctx context.Context, w store.PriceGroupWrite) error
	ReplacePriceGroupRules(ctx context.Context, w store.PriceGroupWrite) error
	// CatalogueForImport reads every range, category and product: what a file is checked against.
	CatalogueForImport(ctx context.Context) ([]catalogue.Range, []catalogue.Category, []store.ImportProduct, error)
}

var _ Store = (*store.Store)(nil)

// Service carries out staff's work on price groups.
type Service struct {
	Store Store
	Now   func() time.Time
}

// Summary is a group in the back office's list: Rows is how many keys its rules price.
type Summary struct {
	ID, Name  string
	Rows      int
	Version   int64
	UpdatedAt time.Time
}

// List answers every group by name.
func (s Service) List(ctx context.Context) ([]Summary, error) {
	groups, err := s.Store.AllPriceGroups(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(groups))
	for _, g := range groups {
		out = append(out, Summary{ID: g.ID, Name: g.Name, Rows: g.Rules.Rows(), Version: g.Version, UpdatedAt: g.UpdatedAt})
	}
	slices.SortFunc(out, func(a, b Summary) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) })
	return out, nil
}

// Save creates group id named name (version 0: the id must be new) or renames it (on
// the version the page read). It answers the group after and whether it is new. A bad
// id or name is a *shoperr.FieldError; a taken id or a version that moved on a
// *shoperr.ConflictError; a rename of a group that is not store.ErrNotFound.
func (s Service) Save(ctx context.Context, id, name string, version int64, by orders.Staff) (pricing.Group, bool, error) {
	if msg := IDProblem(id); msg != "" {
		return pricing.Group{}, false, &shoperr.FieldError{Field: "id", Problem: msg}
	}
	clean, msg := CleanName(name)
	if msg != "" {
		return pricing.Group{}, false, &shoperr.FieldError{Field: "name", Problem: msg}
	}
	now := s.Now()
	if version == 0 {
		err := s.Store.CreatePriceGroup(ctx, store.PriceGroupWrite{ID: id, Name: clean,
			Audit: orders.AuditEntry{At: now, By: by, Action: "create", After: map[string]any{"name": clean}}})
		if errors.Is(err, store.ErrChanged) {
			return pricing.Group{}, false, &shoperr.ConflictError{Msg: fmt.Sprintf("A price group with the id %q exists already: choose another id, or open that group to rename it.", id)}
		}
		if err != nil {
			return pricing.Group{}, false, err
		}
		g, err := s.Store.PriceGroup(ctx, id)
		return g, true, err
	}
	g, err := s.Store.PriceGroup(ctx, id)
	if err != nil {
		return pricing.Group{}, false, err
	}
	stale := orders.ChangedMeanwhile("The price group " + g.Name)
	if g.Version != version {
		return pricing.Group{}, false, stale
	}
	err = s.Store.RenamePriceGroup(ctx, store.PriceGroupWrite{ID: id, Name: clean, Seen: version,
		Audit: orders.AuditEntry{At: now, By: by, Action: "rename", Before: map[string]any{"name": g.Name}, After: map[string]any{"name": clean}}})
	if errors.Is(err, store.ErrChanged) {
		return pricing.Group{}, false, stale
	}
	if err != nil {
		return pricing.Group{}, false, err
	}
	g, err = s.Store.PriceGroup(ctx, id)
	return g, false, err
}

// Import is a price group file to check, and to apply when Apply is set and it has no
// problems, on the group's version the review read.
type Import struct {
	Name    string // the file's name, for the audit trail
	Text    []byte
	Apply   bool
	Version int64
	By      orders.Staff
}

// Result is what an import found: the file's problems (at most MaxProblems listed;
// ProblemCount of them in all), its rows, what it adds, changes and removes against the
// group, whether it was applied, and the group as it is after.
type Result struct {
	Problems                []Problem
	ProblemCount            int
	Rows                    int
	Added, Changed, Removed int
	Applied                 bool
	Group                   pricing.Group
}

// Import checks file in against the catalogue and compares it with group id; with
// Apply and no problems it replaces the group's rules (the file is the whole group)
// with an audit entry counting the rows added, changed and removed. A group that is not
// is store.ErrNotFound; a version that moved on since the review a *shoperr.ConflictError.
func (s Service) Import(ctx context.Context, id string, in Import) (Result, error) {
	if !ValidID(id) {
		return Result{}, store.ErrNotFound
	}
	g, err := s.Store.PriceGroup(ctx, id)
	if err != nil {
		return Result{}, err
	}
	ranges, cats, products, err := s.Store.CatalogueForImport(ctx)
	if err != nil {
		return Result{}, err
	}
	rules, probs, count := Read(in.Text, NewCatalogue(ranges, cats, products))
	res := Result{Problems: probs, ProblemCount: count, Group: g}
	if count > 0 {
		return res, nil
	}
	res.Rows = rules.Rows()
	res.Added, res.Changed, res.Removed = Diff(g.Rules, rules)
	if !in.Apply {
		return res, nil
	}
	stale := orders.ChangedMeanwhile("The price group " + g.Name)
	if in.Version != g.Version {
		return Result{}, stale
	}
	err = s.Store.ReplacePriceGroupRules(ctx, store.PriceGroupWrite{ID: id, Rules: rules, Seen: in.Version,
		Audit: orders.AuditEntry{At: s.Now(), By: in.By, Action: "import",
			Before: map[string]any{"version": g.Version, "rows": g.Rules.Rows()},
			After: map[string]any{"version": g.Version + 1, "file": in.Name, "rows": res.Rows, "added": res.Added,
				"changed": res.Changed, "removed": res.Removed}}})
	if errors.Is(err, store.ErrChanged) {
		return Result{}, stale
	}
	if err != nil {
		return Result{}, err
	}
	res.Applied = true
	res.Group, err = s.Store.PriceGroup(ctx, id)
	return res, err
}

// Export writes group id as its file; store.ErrNotFound when there is none.
func (s Service) Export(ctx context.Context, id string, w io.Writer) error {
	if !ValidID(id) {
		return store.ErrNotFound
	}
	g, err := s.Store.PriceGroup(ctx, id)
	if err != nil {
		return err
	}
	return Write(w, g.Rules)
}
