package api

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/store"
	"github.com/tradeshop/functions/internal/testenv"
)

// jobOf is endpoints.json's job name.
func jobOf(t *testing.T, file Deployment, name string) DeployedFunction {
	t.Helper()
	for _, j := range file.Jobs {
		if j.Name == name {
			return j
		}
	}
	t.Fatalf("endpoints.json has no job %s", name)
	return DeployedFunction{}
}

// Every job of endpoints.json is exercised by an access test: sweepOrders by
// TestEndpointsStayWithinTheirTableRights, sendEmails below, statements by
// TestStatementsJobQueuesEachAccountOnceAMonth.
func TestEveryJobHasItsAccessTest(t *testing.T) {
	t.Parallel()
	var names []string
	for _, j := range readEndpointsFile(t).Jobs {
		names = append(names, j.Name)
	}
	slices.Sort(names)
	if want := []string{"sendEmails", "statements", "sweepOrders"}; !slices.Equal(names, want) {
		t.Errorf("endpoints.json jobs %v, want %v: give a new job its access test", names, want)
	}
}

// flakySender sends every message but fail, which it refuses as a server would.
type flakySender struct{ fail string }

func (f flakySender) Send(_ context.Context, m outbox.Message) error {
	if m.ID == f.fail {
		return errors.New("451 try again later")
	}
	return nil
}

// TestSendEmailsStaysWithinItsTableRights runs the email sender as sendEmails runs it
// (mail.Deliver on the store) against DynamoDB Local, through each of its paths: listing
// the due emails, claiming, marking sent, releasing a failed one, taking over a claim
// whose lease ended, and finding a message sent meanwhile; each access must be one its
// endpoints.json grants allow.
func TestSendEmailsStaysWithinItsTableRights(t *testing.T) {
	t.Parallel()
	base := testenv.Store(t)
	ctx := context.Background()
	rec := &opRecorder{}
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = base.TableName(), []func(*middleware.Stack) error{rec.middleware}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range 4 {
		m := outbox.Message{ID: outbox.ID(fmt.Sprintf("TS-2000%02d", i), outbox.KindConfirmation), To: "buyer@shop.test", Subject: "s", Text: "t", HTML: "<p>h</p>"}
		if err := st.Enqueue(ctx, m, now.Add(-2*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	// A sender that died holding a claim: its lease has ended by the run below.
	stale, ok, err := st.ClaimOutbox(ctx, "TS-200003/confirmation", now.Add(-time.Hour), time.Minute)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	rec.take()

	sent, failed, err := mail.Deliver(ctx, st, flakySender{fail: "TS-200001/confirmation"}, now)
	if sent != 3 || failed != 1 || err == nil {
		t.Fatalf("deliver: sent %d failed %d err %v", sent, failed, err)
	}
	// The dead sender comes back and marks its message sent: it was, by the run above.
	if err := st.MarkOutboxSent(ctx, stale, now); err != nil {
		t.Fatal(err)
	}
	// The released one is sent once its back-off ends.
	if sent, _, err := mail.Deliver(ctx, st, flakySender{}, now.Add(time.Hour)); sent != 1 || err != nil {
		t.Fatalf("deliver after the back-off: sent %d err %v", sent, err)
	}
	// Each run ends with the outbox's gauges (cmd/sendEmails).
	if err := st.RecordOutboxBacklog(ctx, now); err != nil {
		t.Fatal(err)
	}
	checkAccesses(t, "sendEmails", jobOf(t, readEndpointsFile(t), "sendEmails").Access, rec.take())
}
