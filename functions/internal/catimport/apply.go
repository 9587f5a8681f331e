package catimport

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
)

// ErrStale is an apply whose files or catalogue are not the ones reviewed.
var ErrStale = errors.New("the file is not the one that was reviewed; check it again before applying")

// Progress is how far an apply has got: Done of Total product writes.
type Progress struct {
	Phase string
	Done  int
	Total int
}

// ApplyOptions say who applies an import and how.
type ApplyOptions struct {
	By orders.Staff
	// Expect is the job that was reviewed ("" for none): a different one is ErrStale.
	Expect   string
	Progress func(Progress)
	Now      func() time.Time
	// Lease is how long the import lock holds without renewal (default a minute); it
	// is renewed while the import writes, so a crashed import frees it within a lease.
	Lease time.Duration
	// Restock hears of the products the import wrote, whose stock it may have set
	// (package alerts: the back-in-stock emails); nil: no one.
	Restock orders.Restocker
}

// Apply checks the input against the table and writes the difference: ranges and
// categories, then new products, then changed and discontinued ones, then its record in
// the imports' audit trail. It holds the import lock throughout. It is idempotent (a
// second run finds nothing to do) and resumable (a run after a crash finds what is left
// and writes that). An input with problems answers *Invalid and writes nothing.
func Apply(ctx context.Context, st Store, in Input, o ApplyOptions) (*Plan, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Lease == 0 {
		o.Lease = time.Minute
	}
	if in.Today == "" {
		in.Today = catalogue.LondonDate(o.Now())
	}
	job := JobOf(in)
	if o.Expect != "" && o.Expect != job {
		return nil, ErrStale
	}
	report := func(phase string, done, total int) {
		if o.Progress != nil {
			o.Progress(Progress{Phase: phase, Done: done, Total: total})
		}
	}
	report("checking", 0, 0)
	if err := st.LockImport(ctx, job, o.By.Email, o.Now(), o.Lease); err != nil {
		return nil, err
	}
	// Renew the lock while writing; give it up at the end (a crash leaves it to expire,
	// or to be taken over by a re-run of the same job).
	renewCtx, stopRenew := context.WithCancel(ctx)
	renewed := make(chan error, 1)
	go func() {
		t := time.NewTicker(o.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-renewCtx.Done():
				renewed <- nil
				return
			case <-t.C:
				if err := st.LockImport(renewCtx, job, o.By.Email, o.Now(), o.Lease); err != nil && renewCtx.Err() == nil {
					renewed <- fmt.Errorf("renew the import lock: %w", err)
					return
				}
			}
		}
	}()
	pl, wrote, err := write(ctx, st, in, job, o, report)
	stopRenew()
	if wrote && o.Restock != nil {
		// Even a write cut short may have given some products stock.
		o.Restock.Restocked(context.WithoutCancel(ctx), pl.written())
	}
	if rerr := <-renewed; err == nil {
		err = rerr
	}
	if err != nil && wrote {
		return pl, err // the lock stays until it expires or this job runs again
	}
	if err != nil {
		// Nothing was written (the file has problems, or the check failed): free the lock
		// for the next import now rather than in a minute.
		_ = st.UnlockImport(context.WithoutCancel(ctx), job)
		return pl, err
	}
	if err := st.UnlockImport(context.WithoutCancel(ctx), job); err != nil {
		return pl, err
	}
	return pl, nil
}

// write answers whether it started writing (so a failure may have left part of the job).
func write(ctx context.Context, st Store, in Input, job string, o ApplyOptions, report func(string, int, int)) (*Plan, bool, error) {
	pl, err := Check(ctx, st, in)
	if err != nil {
		return nil, false, err
	}
	if len(pl.ranges)+len(pl.cats)+len(pl.created)+len(pl.updates) == 0 {
		return pl, false, nil // nothing to write: the same file again
	}
	pl, err = writePlan(ctx, st, in, pl, job, o, report)
	return pl, true, err
}

func writePlan(ctx context.Context, st Store, in Input, pl *Plan, job string, o ApplyOptions, report func(string, int, int)) (*Plan, error) {
	if len(pl.ranges)+len(pl.cats) > 0 {
		if err := st.PutStructure(ctx, pl.ranges, pl.cats); err != nil {
			return pl, fmt.Errorf("write ranges and categories: %w", err)
		}
	}
	now := o.Now().UTC()
	for _, u := range pl.updates {
		if u.Audit != nil {
			u.Audit.At, u.Audit.By = now, o.By
			u.Audit.After["import"] = in.ProductsName
		}
	}
	total := len(pl.created) + len(pl.updates)
	report("writing", 0, total)
	if err := st.PutNewProducts(ctx, pl.created, job, func(done int) { report("writing", done, total) }); err != nil {
		return pl, fmt.Errorf("write new products: %w", err)
	}
	base := len(pl.created)
	if err := st.UpdateProducts(ctx, pl.updates, job, func(done int) { report("writing", base+done, total) }); err != nil {
		return pl, fmt.Errorf("update products: %w", err)
	}
	if pl.Summary.Nothing() {
		return pl, nil // only this import's stock marks were written
	}
	e := orders.AuditEntry{At: now, By: o.By, Action: "import", Before: map[string]any{}, After: map[string]any{
		"file": in.ProductsName, "job": job, "full": in.Full, "rows": pl.Rows, "new": pl.New, "changed": pl.Changed,
		"discontinued": pl.Discontinued, "unchanged": pl.Unchanged, "newRanges": pl.NewRanges, "changedRanges": pl.ChangedRanges,
		"newCategories": pl.NewCategories, "changedCategories": pl.ChangedCategories}}
	if in.StructureName != "" {
		e.After["structureFile"] = in.StructureName
	}
	if err := st.RecordImport(ctx, e); err != nil {
		return pl, fmt.Errorf("record the import: %w", err)
	}
	return pl, nil
}

// written answers the SKUs of the products the plan creates or changes.
func (pl *Plan) written() []string {
	if pl == nil {
		return nil
	}
	out := make([]string, 0, len(pl.created)+len(pl.updates))
	for _, p := range pl.created {
		out = append(out, p.SKU)
	}
	for _, u := range pl.updates {
		out = append(out, u.After.SKU)
	}
	return out
}
