package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tradeshop/functions/config"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/payments"
)

// Credit note numbers are one gap-free sequence of their own (docs/invoices.md "Credit
// notes"), kept as the invoice numbers are: a counter item (COUNTER#CREDITNOTE) with the
// last number issued and one item per number issued (pk CREDITNOTE, sk the number). A
// cancellation's credit note is issued by the transaction that finishes the cancellation:
// it moves the counter from n to n+1 (on condition it still holds n), adds the note to
// the order and sets it cancelled (on condition it is still cancelling), records the
// number (on condition it is not recorded), gives back the coupon's use and the credit,
// queues the emails and deletes the CANCELLING marker. All or nothing: a number is never
// taken without its note, and the marker stays until the note is issued, so the sweep
// finishes a cancellation a crash interrupted with its note.

// creditLineItem is a line credited, as stored: its description (SKU, name, pack size)
// is the order line's, by its index, which never changes, so a note of every line of a
// 500-line order keeps the order within its 400 KB item.
type creditLineItem struct {
	Line      int   `dynamodbav:"line"`
	Units     int   `dynamodbav:"units"`
	UnitPrice int64 `dynamodbav:"unitPrice"`
	VATRate   int   `dynamodbav:"vatRate"`
	NetExVAT  int64 `dynamodbav:"netExVat"`
	VAT       int64 `dynamodbav:"vat"`
	// Restocked is how many of the units went back to stock; a line stored before it
	// was kept (a cancellation's) reads as all of them.
	Restocked *int `dynamodbav:"restocked,omitempty"`
}

// creditNoteItem is a credit note as stored, in its order item (list creditNotes).
type creditNoteItem struct {
	Number        int64            `dynamodbav:"number"`
	IssuedAt      int64            `dynamodbav:"issuedAt"` // Unix ms
	Supplier      supplierItem     `dynamodbav:"supplier"`
	Invoice       int64            `dynamodbav:"invoice"`
	InvoiceDate   int64            `dynamodbav:"invoiceDate"` // Unix ms
	Lines         []creditLineItem `dynamodbav:"lines"`
	DeliveryExVAT int64            `dynamodbav:"deliveryExVat"`
	DeliveryVAT   int64            `dynamodbav:"deliveryVat"`
	Rates         []rateItem       `dynamodbav:"rates"`
	Reason        string           `dynamodbav:"reason"`
	// Applied is what the note took off its invoice (orders.CreditNote.Applied); a note
	// stored before it was kept reads as its gross.
	Applied *int64 `dynamodbav:"applied,omitempty"`
}

func creditNoteToItem(c orders.CreditNote) creditNoteItem {
	it := creditNoteItem{Number: c.Number, IssuedAt: c.IssuedAt.UnixMilli(), Supplier: supplierItem(c.Supplier), Invoice: c.Invoice,
		InvoiceDate: c.InvoiceDate.UnixMilli(), DeliveryExVAT: c.DeliveryExVAT, DeliveryVAT: c.DeliveryVAT, Reason: c.Reason, Applied: ptr(c.Applied)}
	for _, l := range c.Lines {
		it.Lines = append(it.Lines, creditLineItem{Line: l.Line, Units: l.Units, UnitPrice: l.UnitPrice, VATRate: l.VATRate, NetExVAT: l.NetExVAT, VAT: l.VAT,
			Restocked: ptr(l.Restocked)})
	}
	for _, r := range c.Rates {
		it.Rates = append(it.Rates, rateItem(r))
	}
	return it
}

// toCreditNote is the note as stored, its lines described from the order's lines.
func (it creditNoteItem) toCreditNote(lines []orders.Line) orders.CreditNote {
	c := orders.CreditNote{Number: it.Number, IssuedAt: time.UnixMilli(it.IssuedAt).UTC(), Supplier: config.Business(it.Supplier),
		Invoice: it.Invoice, InvoiceDate: time.UnixMilli(it.InvoiceDate).UTC(), DeliveryExVAT: it.DeliveryExVAT,
		DeliveryVAT: it.DeliveryVAT, Reason: it.Reason}
	for _, l := range it.Lines {
		cl := orders.CreditLine{Line: l.Line, Units: l.Units, UnitPrice: l.UnitPrice, VATRate: l.VATRate, NetExVAT: l.NetExVAT, VAT: l.VAT,
			Restocked: l.Units}
		if l.Restocked != nil {
			cl.Restocked = *l.Restocked
		}
		if l.Line >= 0 && l.Line < len(lines) {
			ol := lines[l.Line]
			cl.SKU, cl.Name, cl.PackSize = ol.SKU, ol.Name, ol.PackSize
		}
		c.Lines = append(c.Lines, cl)
	}
	for _, r := range it.Rates {
		c.Rates = append(c.Rates, orders.RateTotal(r))
	}
	c.Applied = c.TotalIncVAT()
	if it.Applied != nil {
		c.Applied = *it.Applied
	}
	return c
}

// issueNote runs the transaction of a credit note on o with the next number: build makes
// it for the counter holding last (the counter, the order and the number first: their
// reasons are read by position) and answers the order after it. A lost race to the
// counter tries the next number at once (its value comes with the refusal); a transaction
// conflict reads the counter again after a pause. When the order's condition fails,
// orderMoved answers (the order as it is now, or why the note may not be issued).
func (s *Store) issueNote(ctx context.Context, o orders.Order, build func(last int64) (orders.Order, *txn, error),
	orderMoved func() (orders.Order, error)) (orders.Order, error) {
	last := int64(-1)
	for attempt := 0; attempt < issueAttempts; attempt++ {
		if last < 0 {
			n, err := s.CreditNoteCounter(ctx)
			if err != nil {
				return orders.Order{}, err
			}
			last = n
		}
		done, t, err := build(last)
		if err != nil {
			return orders.Order{}, err
		}
		_, err = s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: t.items})
		var cancelled *types.TransactionCanceledException
		switch {
		case err == nil:
			return done, nil
		case errors.As(err, &cancelled):
			reasons := cancelled.CancellationReasons
			code := func(i int) string {
				if i < len(reasons) {
					return aws.ToString(reasons[i].Code)
				}
				return ""
			}
			switch {
			case code(1) == "ConditionalCheckFailed":
				return orderMoved()
			case code(0) == "ConditionalCheckFailed":
				// Another credit note took the number: its value came with the refusal.
				n, ok := numberOf(reasons[0].Item["n"])
				if !ok {
					n = -1
				}
				last = n
				continue
			case code(2) == "ConditionalCheckFailed":
				return orders.Order{}, fmt.Errorf("credit note for %s: number %d is recorded but the counter says %d", o.ID, last+1, last)
			case !isTxnConflict(err):
				return orders.Order{}, fmt.Errorf("credit note for %s: %w", o.ID, refusal(t, reasons))
			}
		case !isTxnConflict(err):
			return orders.Order{}, fmt.Errorf("credit note for %s: %w", o.ID, err)
		}
		last = -1
		pause(ctx, attempt)
	}
	return orders.Order{}, fmt.Errorf("credit note for %s: the credit note counter stayed busy for %d attempts", o.ID, issueAttempts)
}

// finishCancelled issues cancelling order o's credit note and sets it cancelled, giving
// back the coupon's use and the credit, with the emails (see the comment above); parts
// is how many chunks of lines must be given back first.
func (s *Store) finishCancelled(ctx context.Context, o orders.Order, parts int, emails func(o orders.Order) []outbox.Message) (orders.Order, error) {
	if o.Invoice == nil {
		// Placement and invoice are seconds apart and cancel waits for the invoice
		// (orders.Apply); the sweep tries again once the invoice sweep has issued it.
		return orders.Order{}, fmt.Errorf("finish cancelling %s: its invoice is not issued yet", o.ID)
	}
	build := func(last int64) (orders.Order, *txn, error) {
		done := o
		done.Status = orders.StatusCancelled
		note := orders.CancellationCreditNote(o, last+1)
		note.Apply(o)
		done.CreditNotes = append(slices.Clone(o.CreditNotes), note)
		t, err := s.cancelledTxn(o, done, last, parts, emails)
		return done, t, err
	}
	return s.issueNote(ctx, o, build, func() (orders.Order, error) {
		// Finished meanwhile by another run (the sweep, two staff at once).
		now, gerr := getItem[orderItem](ctx, s, prefixUser+o.UID, prefixOrder+o.ID)
		if gerr == nil && now.Status == orders.StatusCancelled {
			return now.toOrder(), nil
		}
		return orders.Order{}, fmt.Errorf("finish cancelling %s: the order is not ready to be cancelled", o.ID)
	})
}

// noteStart adds the first three items of a credit note's transaction to t: the counter
// from last to the note's number, the order's update (under cond, with the note appended
// to creditNotes and invoicePaid still as read) and the number's record.
func (s *Store) noteStart(t *txn, o orders.Order, note orders.CreditNote, last int64, upd expression.UpdateBuilder, cond expression.ConditionBuilder) []error {
	n := expression.Name("n")
	counterCond := n.Equal(expression.Value(last))
	if last == 0 {
		counterCond = expression.AttributeNotExists(n).Or(n.Equal(expression.Value(0)))
	}
	notes, paid := expression.Name("creditNotes"), expression.Name("invoicePaid")
	// The note's applied part is worked out from what payments had allocated to the
	// invoice: an allocation meanwhile fails the note, which is worked out again.
	if o.InvoicePaid == 0 {
		cond = cond.And(expression.AttributeNotExists(paid).Or(paid.Equal(expression.Value(0))))
	} else {
		cond = cond.And(paid.Equal(expression.Value(o.InvoicePaid)))
	}
	upd = upd.Set(notes, expression.ListAppend(expression.IfNotExists(notes, expression.Value([]creditNoteItem{})),
		expression.Value([]creditNoteItem{creditNoteToItem(note)})))
	return []error{
		t.update(role{}, key(pkCreditNoteCounter, skItem), s.table, expression.Set(n, expression.Value(note.Number)), &counterCond),
		t.update(role{}, orderKey(o.UID, o.ID), s.table, upd, &cond),
		t.put(role{}, s.table, issuedNumberItem{PK: pkCreditNote, SK: invoiceNumberSK(note.Number), Number: note.Number,
			OrderID: o.ID, UID: o.UID, IssuedAt: note.IssuedAt.UnixMilli()}, notThere),
	}
}

// noteMoney adds what a credit note moves of the account to t (docs/invoices.md "Credit
// notes and payments"): the account's owed balance down by what the note applied to an
// invoice on account, and what it leaves over as credit on account.
func (s *Store) noteMoney(t *txn, o orders.Order, note orders.CreditNote) []error {
	var errs []error
	if !o.ProForma() && note.Applied != 0 {
		errs = append(errs, s.owe(t, o.UID, -note.Applied))
	}
	if on := note.OnAccount(); on > 0 {
		// Credit on account is stored as a payment item whose method is
		// payments.MethodCreditNote, naming its order.
		id := orders.CreditNoteNumber(note.Number)
		errs = append(errs, t.put(role{}, s.table, paymentItem{PK: prefixUser + o.UID, SK: prefixPayment + id, ID: id, UID: o.UID,
			Method: payments.MethodCreditNote, Date: note.IssuedAt.In(londonDays).Format(time.DateOnly), Amount: on, Reference: id, OrderID: o.ID,
			RecordedAt: note.IssuedAt.UnixMilli(), Allocations: []allocationItem{}}, notThere))
	}
	return errs
}

// londonDays is the calendar of a payment's date.
var londonDays = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		return time.UTC
	}
	return loc
}()

// cancelledTxn builds the transaction that finishes o's cancellation as done (with its
// new credit note, the last one in done.CreditNotes), the counter holding last.
func (s *Store) cancelledTxn(o, done orders.Order, last int64, parts int, emails func(o orders.Order) []outbox.Message) (*txn, error) {
	note := done.CreditNotes[len(done.CreditNotes)-1]
	status, returned := expression.Name("status"), expression.Name("returned")
	ready := status.Equal(expression.Value(orders.StatusCancelling)).And(expression.Size(returned).Equal(expression.Value(parts)))
	t := &txn{}
	errs := s.noteStart(t, o, note, last, expression.Set(status, expression.Value(orders.StatusCancelled)), ready)
	errs = append(errs, t.del(role{}, s.table, key(pkCancelling, o.ID), expression.AttributeExists(expression.Name("pk"))))
	if o.CouponID != "" {
		// Given back with no limit to check: limits do not matter to a give-back.
		p := orders.Placement{Order: o, Coupon: &StoredCoupon{}}
		p.Coupon.ID = o.CouponID
		errs = append(errs, s.useCoupon(t, p, -1))
	}
	errs = append(errs, s.noteMoney(t, o, note)...)
	if emails != nil {
		for _, m := range emails(done) {
			errs = append(errs, s.putOutbox(t, m, o.CancelledAt))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("build the cancellation of %s: %w", o.ID, err)
	}
	return t, nil
}

// CreditPart issues a part credit's note (orders.PartCredit) in one transaction: the
// counter, the order (the note appended, its version moved on, on condition it is still
// the version and status read and its invoicePaid as read), the number, the stock of the
// units going back, the account's owed balance and credit on account (noteMoney), the
// audit entry and the email. When the order moved meanwhile it answers orders.ErrStale.
func (s *Store) CreditPart(ctx context.Context, p orders.PartCredit) (orders.Order, error) {
	o := p.Before
	build := func(last int64) (orders.Order, *txn, error) {
		note, err := p.Note(last + 1)
		if err != nil {
			return orders.Order{}, nil, err
		}
		note.Apply(o)
		done := o
		done.Version = o.Version + 1
		done.CreditNotes = append(slices.Clone(o.CreditNotes), note)
		upd := expression.Set(expression.Name("version"), expression.Value(done.Version))
		if !o.Paid() && orders.Owed(done) == 0 && done.InvoicePaid > 0 {
			// What was paid now covers what the invoice owes: the order is paid.
			done.PaidAt = note.IssuedAt
			upd = upd.Set(expression.Name("paidAt"), expression.Value(done.PaidAt.UnixMilli()))
		}
		t := &txn{}
		errs := s.noteStart(t, o, note, last, upd, versionCond(o))
		errs = append(errs, s.stock(t, p.Restock, 1))
		errs = append(errs, s.noteMoney(t, o, note)...)
		audit := p.Audit
		audit.After = map[string]any{"credit_note": orders.CreditNoteNumber(note.Number), "total_inc_vat": note.TotalIncVAT(), "applied": note.Applied,
			"version": done.Version, "reason": note.Reason}
		errs = append(errs, s.putAudit(t, AuditOrder+o.ID, audit))
		if p.Emails != nil {
			for _, m := range p.Emails(done, note) {
				errs = append(errs, s.putOutbox(t, m, note.IssuedAt))
			}
		}
		if err := errors.Join(errs...); err != nil {
			return orders.Order{}, nil, fmt.Errorf("build the credit of %s: %w", o.ID, err)
		}
		return done, t, nil
	}
	return s.issueNote(ctx, o, build, func() (orders.Order, error) {
		if now, err := s.Order(ctx, o.UID, o.ID); err == nil {
			return orders.Order{}, orders.ErrStale(now)
		}
		return orders.Order{}, orders.ErrStale(o)
	})
}

// CreditNoteCounter reads the last credit note number issued (0 before the first).
func (s *Store) CreditNoteCounter(ctx context.Context) (int64, error) {
	return s.counter(ctx, pkCreditNoteCounter, "credit note")
}

// CreditNoteNumbers answers every credit note number issued, in order, with its order:
// what the invariant check reads (1 to N with no gap, each on the order it names).
func (s *Store) CreditNoteNumbers(ctx context.Context) ([]orders.IssuedNumber, error) {
	return s.issuedNumbers(ctx, pkCreditNote, "credit note")
}

// RecentCreditNotes answers the orders of the newest credit notes (at most limit notes,
// newest first) issued at or after since, each order once: the card refund sweep reads it
// to find a note whose refund to the card a crash left unasked (package cardpay).
func (s *Store) RecentCreditNotes(ctx context.Context, since time.Time, limit int) ([]orders.OrderRef, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key("pk").Equal(expression.Value(pkCreditNote))).Build()
	if err != nil {
		return nil, err
	}
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(s.table), KeyConditionExpression: expr.KeyCondition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ScanIndexForward: aws.Bool(false),
		ConsistentRead: aws.Bool(true), Limit: aws.Int32(int32(limit))})
	if err != nil {
		return nil, fmt.Errorf("recent credit notes: %w", err)
	}
	var items []issuedNumberItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, fmt.Errorf("recent credit notes: %w", err)
	}
	var refs []orders.OrderRef
	seen := map[orders.OrderRef]bool{}
	for _, it := range items {
		ref := orders.OrderRef{UID: it.UID, ID: it.OrderID}
		if it.IssuedAt < since.UnixMilli() {
			break // newest first: the rest are older
		}
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	return refs, nil
}
