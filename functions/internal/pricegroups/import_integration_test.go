package pricegroups_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/pricegroups"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// Staff create a group, import a file with a bad row (refused by line, nothing
// written), fix it, review and apply it; a second apply on the old version is refused;
// the export reads back to the same group (a review of it changes nothing).
func TestImportReviewApplyExport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := testenv.Store(t)
	err := st.PutCatalogue(ctx, []catalogue.Range{{URLText: "wholesale_greeting_cards", Name: "Cards"}},
		[]catalogue.Category{{ID: 101, Slug: "birthday-cards", Name: "Birthday", RangeURLText: "wholesale_greeting_cards"}},
		[]catalogue.Product{{SKU: "GC101-00001", Slug: "robin", Name: "Robin", CategoryID: 101, RangeURLText: "wholesale_greeting_cards", PackSize: 6, UnitPrice: 100, VATRate: 20}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1_760_000_000_000).UTC()
	jo := orders.Staff{UID: "staff-1", Email: "jo@example.co.uk"}
	// Each write a second after the one before, so the trail's order is theirs.
	svc := pricegroups.Service{Store: st, Now: func() time.Time { at = at.Add(time.Second); return at }}
	g, created, err := svc.Save(ctx, "independents", " Independents ", 0, jo)
	if err != nil || !created || g.Name != "Independents" || g.Version != 1 {
		t.Fatalf("create: %+v %v %v", g, created, err)
	}
	if _, _, err := svc.Save(ctx, "independents", "Again", 0, jo); !errors.As(err, new(*shoperr.ConflictError)) {
		t.Fatalf("create of a taken id: %v", err)
	}

	bad := "applies_to,code,price,discount_percent,breaks\nproduct,GC101-00001,0.80,,6:0.75; 12:0.70\ncategory,101,,10,\nrange,wholesale_greeting_cards,,,12:0.50\n"
	res, err := svc.Import(ctx, "independents", pricegroups.Import{Name: "independents.csv", Text: []byte(bad), Apply: true, Version: 1, By: jo})
	if err != nil || res.Applied || res.ProblemCount != 1 || res.Problems[0].Line != 4 || res.Problems[0].Column != "breaks" {
		t.Fatalf("bad file: %+v %v", res, err)
	}
	good := "applies_to,code,price,discount_percent,breaks\nproduct,GC101-00001,0.80,,6:0.75; 12:0.70\ncategory,101,,10,\nrange,wholesale_greeting_cards,,,12:5%\n"
	res, err = svc.Import(ctx, "independents", pricegroups.Import{Name: "independents.csv", Text: []byte(good), Version: 1, By: jo})
	if err != nil || res.Applied || res.Rows != 3 || res.Added != 3 || res.Group.Version != 1 {
		t.Fatalf("review: %+v %v", res, err)
	}
	res, err = svc.Import(ctx, "independents", pricegroups.Import{Name: "independents.csv", Text: []byte(good), Apply: true, Version: 1, By: jo})
	if err != nil || !res.Applied || res.Group.Version != 2 || res.Group.Rules.Prices["product:GC101-00001"] != 80 {
		t.Fatalf("apply: %+v %v", res, err)
	}
	if _, err := svc.Import(ctx, "independents", pricegroups.Import{Text: []byte(good), Apply: true, Version: 1, By: jo}); !errors.As(err, new(*shoperr.ConflictError)) {
		t.Fatalf("apply on the old version: %v", err)
	}
	trail, err := st.Audit(ctx, store.AuditPriceGroup+"independents")
	if err != nil || len(trail) != 2 || trail[0].Action != "import" || trail[0].After["added"] != float64(3) || trail[0].By != jo {
		t.Fatalf("audit: %+v %v", trail, err)
	}

	var out bytes.Buffer
	if err := svc.Export(ctx, "independents", &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != good {
		t.Fatalf("export:\n%s", out.String())
	}
	res, err = svc.Import(ctx, "independents", pricegroups.Import{Text: out.Bytes(), Version: 2, By: jo})
	if err != nil || res.Added+res.Changed+res.Removed != 0 || res.Rows != 3 {
		t.Fatalf("the export reviewed: %+v %v", res, err)
	}
	list, err := svc.List(ctx)
	if err != nil || len(list) != 1 || list[0].Rows != 3 || list[0].Version != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := svc.Export(ctx, "nope", &out); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("export of a group that is not: %v", err)
	}
	if _, _, err := svc.Save(ctx, "independents", "Independent shops", 1, jo); !errors.As(err, new(*shoperr.ConflictError)) {
		t.Fatalf("rename on an old version: %v", err)
	}
	if g, _, err := svc.Save(ctx, "independents", "Independent shops", 2, jo); err != nil || g.Name != "Independent shops" || g.Version != 3 {
		t.Fatalf("rename: %+v %v", g, err)
	}
}
