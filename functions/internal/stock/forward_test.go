package stock

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/shoperr"
)

func TestForwardProblems(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		f    catalogue.Forward
		want []string
	}{
		{"a marking", catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: 500}, nil},
		{"order by on the delivery day", catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-09-01"}, nil},
		{"order by after delivery", catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-09-02"}, []string{"order_by"}},
		{"no dates", catalogue.Forward{}, []string{"delivery_from", "order_by"}},
		{"not a day", catalogue.Forward{DeliveryFrom: "2027-02-30", OrderBy: "2027-01-31"}, []string{"delivery_from"}},
		{"negative units", catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: -1}, []string{"expected"}},
		{"too many units", catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: MaxExpected + 1}, []string{"expected"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := slices.Sorted(maps.Keys(ForwardProblems(tc.f))); !slices.Equal(got, tc.want) {
				t.Errorf("problems with %v, want %v", got, tc.want)
			}
		})
	}
}

// Marking a product forward and ending it write the marking and a trail entry each, with
// what it was and what it is.
func TestMarkForward(t *testing.T) {
	t.Parallel()
	f := newFake(60, 0)
	s := Service{Store: f, Now: func() time.Time { return time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC) }}
	by := orders.Staff{UID: "s1", Email: "stock@example.com"}
	fw := &catalogue.Forward{DeliveryFrom: "2027-09-01", OrderBy: "2027-06-30", Expected: 480}
	rec, err := s.MarkForward(context.Background(), "GC101-00001", fw, by)
	if err != nil || rec.Product.Forward == nil || *rec.Product.Forward != *fw || rec.Product.Stock != 60 {
		t.Fatalf("marked: %+v %v", rec.Product, err)
	}
	if a := rec.Audit[0]; a.Action != "forward: marked" || a.Before["forward"] != "none" || a.After["forward"] != "from 2027-09-01, order by 2027-06-30, 480 expected" {
		t.Errorf("trail entry %+v", a)
	}
	rec, err = s.MarkForward(context.Background(), "GC101-00001", nil, by)
	if err != nil || rec.Product.Forward != nil || len(rec.Audit) != 2 || rec.Audit[0].Action != "forward: ended" {
		t.Fatalf("ended: %+v %+v %v", rec.Product, rec.Audit, err)
	}
	var nf *shoperr.NotFoundError
	if _, err := s.MarkForward(context.Background(), "NO-SUCH", fw, by); !errors.As(err, &nf) {
		t.Errorf("an unknown product: %v", err)
	}
}
