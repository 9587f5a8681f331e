package api

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go/middleware"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/mail"
	"github.com/tradeshop/functions/internal/reminders"
	"github.com/tradeshop/functions/internal/store"
)

// TestRemindersQueueOneEmailPerBuyerAndOrderByDate runs the pre-order reminders as the
// statements Lambda runs them each day, against DynamoDB Local: a buyer whose basket
// holds two forward products closing on one date and a third on another gets one email
// per date, each listing its lines; a buyer whose basket holds only stock products gets
// none; a second run queues nothing; and every access is one the statements job's grants
// allow (docs/forward-orders.md "Reminders").
func TestRemindersQueueOneEmailPerBuyerAndOrderByDate(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	ctx := context.Background()
	robin, holly, advent, stock := s.product(0, 6, 150), s.product(0, 12, 90), s.product(0, 4, 400), s.product(50, 6, 150)
	fwd := func(p *catalogue.Product, orderBy string) {
		p.Forward = &catalogue.Forward{DeliveryFrom: "2099-09-01", OrderBy: orderBy}
	}
	fwd(&robin, "2099-06-30")
	fwd(&holly, "2099-06-30")
	fwd(&advent, "2099-07-03")
	if err := s.st.PutCatalogue(ctx, nil, nil, []catalogue.Product{robin, holly, advent}, nil); err != nil {
		t.Fatal(err)
	}
	keen := listedBuyer(t, s, "Keen Cards Ltd")
	other := listedBuyer(t, s, "Stock Cards Ltd")
	s.set(keen, robin, 30)
	s.set(keen, holly, 12)
	s.set(keen, advent, 8)
	s.set(keen, stock, 6)
	s.set(other, stock, 12)
	rec := &opRecorder{}
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName, cfg.APIOptions = s.st.TableName(), []func(*middleware.Stack) error{rec.middleware}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	shop, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc := reminders.Service{Store: st, Notify: mail.Notices{Shop: shop, SiteURL: "https://shop.test"}, Now: time.Now}
	rec.take()
	// A week before the first date: the advent calendars (3 July) are due too.
	r, err := svc.Send(ctx, "2099-06-26")
	if err != nil || r.Products != 3 || r.Baskets != 1 || r.Queued != 2 || r.Already != 0 {
		t.Fatalf("first run: %+v %v", r, err)
	}
	r, err = svc.Send(ctx, "2099-06-27")
	if err != nil || r.Queued != 0 || r.Already != 2 {
		t.Fatalf("second run: %+v %v", r, err)
	}
	checkAccesses(t, "statements", jobOf(t, readEndpointsFile(t), "statements").Access, rec.take())
	for _, c := range []struct {
		orderBy string
		want    []string
	}{
		{"2099-06-30", []string{"Pre-orders for " + robin.Name + " close on 30 June 2099: your basket holds 5 packs — place your order by then.",
			"Pre-orders for " + holly.Name + " close on 30 June 2099: your basket holds 1 pack — place your order by then."}},
		{"2099-07-03", []string{"Pre-orders for " + advent.Name + " close on 3 July 2099: your basket holds 2 packs"}},
	} {
		id := reminders.EmailID(keen.UID, c.orderBy)
		status, err := st.OutboxStatus(ctx, id)
		if err != nil || status.State != "pending" {
			t.Fatalf("reminder %s: %+v %v", id, status, err)
		}
		m, ok, err := s.st.ClaimOutbox(ctx, id, time.Now(), time.Minute)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		for _, w := range c.want {
			if !strings.Contains(m.Text, w) {
				t.Errorf("reminder %s says\n%s\nwant it to say %q", id, m.Text, w)
			}
		}
		if m.To != keen.Email {
			t.Errorf("reminder %s to %q, want %q", id, m.To, keen.Email)
		}
	}
	if _, err := st.OutboxStatus(ctx, reminders.EmailID(other.UID, "2099-06-30")); err == nil {
		t.Error("a buyer with no forward line was reminded")
	}
	// Past the order-by dates nothing is due: no basket is read.
	rec.take()
	if r, err := svc.Send(ctx, "2099-07-04"); err != nil || r.Products != 0 {
		t.Fatalf("after the dates: %+v %v", r, err)
	}
}
