package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// TestBackfillListsWhatWasWrittenBeforeTheStaffLists: an account and a coupon stored
// without their staff listing are found by the staff lists after the backfill, once.
func TestBackfillListsWhatWasWrittenBeforeTheStaffLists(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	if _, err := st.CreateProfile(ctx, store.Profile{UID: "old-account", Business: "Old Cards Ltd", Email: "old@example.com"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.PutCoupons(ctx, []store.StoredCoupon{{Coupon: pricing.Coupon{ID: "OLDONE", Kind: "percent", Percent: 5}}}); err != nil {
		t.Fatal(err)
	}
	for _, k := range [][2]string{{"USER#old-account", "PROFILE"}, {"COUPON#OLDONE", "ITEM"}} {
		if err := st.UnlistForTest(ctx, k[0], k[1]); err != nil {
			t.Fatal(err)
		}
	}
	list, _, err := st.StaffAccounts(ctx, "old cards", nil, 10)
	if err != nil || len(list) != 0 {
		t.Fatalf("before the backfill: %v %v", list, err)
	}
	n, err := st.BackfillStaffLists(ctx)
	if err != nil || n != 2 {
		t.Fatalf("backfill: %d %v, want 2", n, err)
	}
	if list, _, err = st.StaffAccounts(ctx, "old cards", nil, 10); err != nil || len(list) != 1 || list[0].UID != "old-account" {
		t.Fatalf("after the backfill: %v %v", list, err)
	}
	coupons, err := st.Coupons(ctx)
	if err != nil || len(coupons) != 1 || coupons[0].ID != "OLDONE" {
		t.Fatalf("coupons: %v %v", coupons, err)
	}
	if n, err := st.BackfillStaffLists(ctx); err != nil || n != 0 {
		t.Fatalf("a second backfill: %d %v, want 0", n, err)
	}
}
