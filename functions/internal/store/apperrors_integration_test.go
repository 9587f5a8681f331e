package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// A group not seen for 30 days is left out before the table's TTL deletes it; one seen
// again is kept, with its first sighting.
func TestAppErrorGroupsExpire(t *testing.T) {
	t.Parallel()
	st := testenv.Store(t)
	ctx := context.Background()
	now := time.Now().Truncate(time.Millisecond)
	old := store.AppErrorReport{Kind: "fatal", Name: "Error", Message: "Old news.", Path: "/", Count: 1}
	again := store.AppErrorReport{Kind: "api", Name: "ApiError", Message: "The basket answered 500.", Path: "/basket/", Status: 500, Count: 2}
	if err := st.RecordAppErrors(ctx, []store.AppErrorReport{old, again}, now.Add(-31*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordAppErrors(ctx, []store.AppErrorReport{again, again}, now); err != nil {
		t.Fatal(err)
	}
	groups, err := st.AppErrorGroups(ctx, now, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 1 || groups[0].Message != again.Message || groups[0].Count != 6 ||
		!groups[0].FirstSeen.Equal(now.Add(-31*24*time.Hour)) || !groups[0].LastSeen.Equal(now) {
		t.Errorf("groups: %+v, want the one seen again (6 reports, first seen 31 days ago)", groups)
	}
}
