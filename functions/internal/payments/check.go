package payments

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tradeshop/functions/internal/orders"
)

// heldCreditNote is the method of credit on account: the part of a credit note its
// invoice did not owe, kept as a payment item (docs/invoices.md "Credit on account").
const heldCreditNote = "credit_note"

// Books are one account's money as the table holds it, read for AccountProblems: the
// documents themselves and the figures kept beside them, not anything worked out from
// them, so that the check can hold each figure to its documents.
type Books struct {
	UID string
	// Owed is the account's owed attribute (the credit limit's measure).
	Owed   int64
	Orders []orders.Order
	// Applied is each credit note's applied part as stored on it, by note number. A
	// note with none stored (issued before notes kept it) applies its whole gross.
	Applied map[int64]int64
	// Held are the account's payments and its credit on account: every item that holds
	// money to allocate.
	Held    []Held
	Refunds []RefundSeen
	// Ledger is the account's ledger as the service draws it for staff and the buyer.
	Ledger Ledger
}

// Held is a payment, or credit on account, as stored.
type Held struct {
	ID          string // PAY-…, or the credit note's number (CN-000007) for credit on account
	Method      string
	Amount      int64
	Allocated   int64
	OrderID     string // credit on account: the credit note's order
	Allocations []HeldAllocation
}

// HeldAllocation is one allocation of a Held item: to an invoice, or to a refund.
type HeldAllocation struct {
	Invoice int64
	OrderID string
	Refund  string // REF-…, for money paid back
	Amount  int64
}

// RefundSeen is a refund as stored: money paid back from what Source held.
type RefundSeen struct {
	ID     string
	Source string // the payment's id or the credit note's number
	Amount int64
}

// AccountProblems answers each invariant of docs/invoices.md "Payments" that b breaks,
// as a sentence naming the account and the document; nil when all hold:
//
//   - balance = Σ invoices − Σ credit notes − Σ payments (not credit on account) +
//     Σ refunds = the ledger's balance and its last running balance = due − unallocated;
//     each running balance is the sum of the entries up to it, and the ledger's due and
//     unallocated are those of the documents;
//   - per payment (and credit on account): Σ its allocations = its allocated ≤ its amount;
//   - credit on account is exactly each note's gross less its applied part, and each
//     refund is one allocation of its source;
//   - per invoice: Σ the allocations to it = its order's invoicePaid ≤ gross − Σ its
//     notes' applied; a cancelled order's invoice owes nothing; an order not cancelled
//     is paid exactly when payments cover it;
//   - owed = Σ what the account's orders on account still owe.
func AccountProblems(b Books) []string {
	c := checker{uid: b.UID}
	held := map[string]Held{}
	for _, h := range b.Held {
		held[h.ID] = h
	}
	refunds := map[string]RefundSeen{}
	for _, r := range b.Refunds {
		refunds[r.ID] = r
	}

	// Each payment and credit on account: its allocations add up to what it records.
	toInvoice := map[int64]int64{}
	toInvoiceOrder := map[int64]string{}
	refundAllocations := map[string]int{}
	var paymentsIn, unallocated int64
	for _, h := range b.Held {
		var sum int64
		for _, a := range h.Allocations {
			sum += a.Amount
			switch {
			case a.Amount <= 0:
				c.add("%s allocates %s to %s: an allocation is more than £0.", h.ID, pounds(a.Amount), allocationTarget(a))
			case a.Refund != "":
				refundAllocations[a.Refund]++
				if r, ok := refunds[a.Refund]; !ok {
					c.add("%s allocates %s to refund %s, which is not there.", h.ID, pounds(a.Amount), a.Refund)
				} else if r.Source != h.ID || r.Amount != a.Amount {
					c.add("%s allocates %s to refund %s, which pays back %s from %s.", h.ID, pounds(a.Amount), a.Refund, pounds(r.Amount), r.Source)
				}
			case a.Invoice > 0:
				toInvoice[a.Invoice] += a.Amount
				if prev, ok := toInvoiceOrder[a.Invoice]; ok && prev != a.OrderID {
					c.add("%s allocates to %s as order %s, which another allocation names as order %s.", h.ID,
						orders.InvoiceNumber(a.Invoice), a.OrderID, prev)
				}
				toInvoiceOrder[a.Invoice] = a.OrderID
			default:
				c.add("%s has an allocation of %s that names neither an invoice nor a refund.", h.ID, pounds(a.Amount))
			}
		}
		if sum != h.Allocated {
			c.add("%s records %s allocated, but its allocations add up to %s.", h.ID, pounds(h.Allocated), pounds(sum))
		}
		if h.Allocated > h.Amount || h.Allocated < 0 {
			c.add("%s has %s allocated of its %s.", h.ID, pounds(h.Allocated), pounds(h.Amount))
		}
		if h.Amount <= 0 {
			c.add("%s holds %s: a payment is more than £0.", h.ID, pounds(h.Amount))
		}
		unallocated += h.Amount - h.Allocated
		if h.Method != heldCreditNote {
			paymentsIn += h.Amount
		}
	}

	// Each refund is exactly one allocation of the item it pays back from.
	var refunded int64
	for _, r := range b.Refunds {
		refunded += r.Amount
		if _, ok := held[r.Source]; !ok {
			c.add("Refund %s pays back %s from %s, which is not there.", r.ID, pounds(r.Amount), r.Source)
		} else if n := refundAllocations[r.ID]; n != 1 {
			c.add("Refund %s is allocated %d times by %s, not once.", r.ID, n, r.Source)
		}
	}

	// Each invoice: its allocations, its credit notes and what its order records.
	var invoiced, credited, markedPaid, due, owed int64
	invoices := map[int64]bool{}
	notes := map[string]bool{}
	for _, o := range b.Orders {
		if o.Invoice == nil {
			// A forward order owes nothing: its releases are invoiced, and owed, as its
			// goods are allocated (docs/forward-orders.md).
			if o.Status != orders.StatusCancelled && !o.ProForma() && !o.Forward() {
				owed += o.TotalIncVAT // placed on account, invoice still being issued
			}
			continue
		}
		inv := o.Invoice.Number
		invoices[inv] = true
		gross := o.TotalIncVAT
		invoiced += gross
		var applied int64
		for _, n := range o.CreditNotes {
			ng := n.TotalIncVAT()
			na, ok := b.Applied[n.Number]
			if !ok {
				na = ng
			}
			credited += ng
			applied += na
			number := CreditNoteNumber(n.Number)
			notes[number] = true
			if na < 0 || na > ng {
				c.add("%s on order %s applies %s of its %s.", number, o.ID, pounds(na), pounds(ng))
			}
			c.creditOnAccount(held[number], number, o.ID, ng-na)
		}
		if toInvoice[inv] != o.InvoicePaid {
			c.add("%s (order %s): its allocations add up to %s, but the order records %s paid.", orders.InvoiceNumber(inv), o.ID,
				pounds(toInvoice[inv]), pounds(o.InvoicePaid))
		}
		if id, ok := toInvoiceOrder[inv]; ok && id != o.ID {
			c.add("%s is order %s's, but allocations name it as order %s's.", orders.InvoiceNumber(inv), o.ID, id)
		}
		paid := o.InvoicePaid
		if o.Paid() && o.InvoicePaid == 0 {
			// Marked paid before payments were recorded: the ledger shows it as a
			// payment of its gross, and it owes nothing.
			markedPaid += gross
			paid = gross - applied
		}
		outstanding := gross - applied - paid
		switch {
		case outstanding < 0:
			c.add("%s (order %s) is overpaid: gross %s, credit notes applied %s, payments %s.", orders.InvoiceNumber(inv), o.ID,
				pounds(gross), pounds(applied), pounds(o.InvoicePaid))
		case o.Status == orders.StatusCancelled && outstanding > 0:
			c.add("Order %s is cancelled but its invoice %s still owes %s.", o.ID, orders.InvoiceNumber(inv), pounds(outstanding))
		case o.Status == orders.StatusCancelled || o.Status == orders.StatusCancelling || o.InvoicePaid == 0:
		case o.Paid() && outstanding > 0:
			c.add("Order %s is paid, but its invoice %s still owes %s.", o.ID, orders.InvoiceNumber(inv), pounds(outstanding))
		case !o.Paid() && outstanding == 0:
			c.add("Payments cover order %s's invoice %s, but the order is not paid.", o.ID, orders.InvoiceNumber(inv))
		}
		due += max(outstanding, 0)
		if !o.ProForma() {
			owed += max(outstanding, 0)
		}
	}
	for _, inv := range slices.Sorted(maps.Keys(toInvoice)) {
		if !invoices[inv] {
			c.add("Payments allocate %s to %s, which is not an invoice of the account.", pounds(toInvoice[inv]), orders.InvoiceNumber(inv))
		}
	}
	for _, h := range b.Held {
		if h.Method == heldCreditNote && !notes[h.ID] {
			c.add("Credit on account %s names a credit note the account's orders do not carry.", h.ID)
		}
	}

	// The account's figures: its balance, the ledger's, and owed.
	balance := invoiced - credited - paymentsIn - markedPaid + refunded
	l := b.Ledger
	if l.Balance != balance {
		c.add("The ledger's balance is %s, but the documents add up to %s (invoices %s − credit notes %s − payments %s + refunds %s).",
			pounds(l.Balance), pounds(balance), pounds(invoiced), pounds(credited), pounds(paymentsIn+markedPaid), pounds(refunded))
	}
	if n := len(l.Entries); n > 0 && l.Entries[n-1].Balance != l.Balance || n == 0 && l.Balance != 0 {
		c.add("The ledger's last running balance is not its balance %s.", pounds(l.Balance))
	}
	var running int64
	for _, e := range l.Entries {
		running += e.Debit - e.Credit
		if e.Balance != running {
			c.add("The ledger's running balance after %s is %s, but its entries up to it add up to %s.", e.Reference, pounds(e.Balance), pounds(running))
			break
		}
	}
	if balance != due-unallocated {
		c.add("The balance %s is not what invoices still owe (%s) less what payments hold unallocated (%s).",
			pounds(balance), pounds(due), pounds(unallocated))
	}
	if l.Due != due {
		c.add("The ledger says %s is due, but the invoices still owe %s.", pounds(l.Due), pounds(due))
	}
	if l.Unallocated != unallocated {
		c.add("The ledger says %s is unallocated, but payments and credit on account hold %s.", pounds(l.Unallocated), pounds(unallocated))
	}
	if b.Owed != owed {
		c.add("The account records %s owed, but its orders on account still owe %s.", pounds(b.Owed), pounds(owed))
	}
	return c.out
}

// checker gathers an account's problems, each a sentence naming the account.
type checker struct {
	uid string
	out []string
}

func (c *checker) add(format string, args ...any) {
	c.out = append(c.out, fmt.Sprintf("Account %s: ", c.uid)+fmt.Sprintf(format, args...))
}

// creditOnAccount checks that note number (of order id), whose gross exceeds what it
// applied by rest, has exactly that as credit on account, h (zero when there is none).
func (c *checker) creditOnAccount(h Held, number, id string, rest int64) {
	switch {
	case rest > 0 && h.ID == "":
		c.add("%s on order %s leaves %s as credit on account, but there is none.", number, id, pounds(rest))
	case rest <= 0 && h.ID != "":
		c.add("%s on order %s leaves nothing on account, but credit on account %s holds %s.", number, id, h.ID, pounds(h.Amount))
	case h.ID == "":
	case h.Method != heldCreditNote:
		c.add("%s is a payment by %s, not credit on account.", number, h.Method)
	case h.Amount != rest || h.OrderID != id:
		c.add("Credit on account %s holds %s of order %s, but its note leaves %s of order %s.", number, pounds(h.Amount), h.OrderID, pounds(rest), id)
	}
}

// allocationTarget names what an allocation is set against.
func allocationTarget(a HeldAllocation) string {
	if a.Refund != "" {
		return "refund " + a.Refund
	}
	return orders.InvoiceNumber(a.Invoice)
}

// pounds formats pence as the problems show them, negative amounts too.
func pounds(p int64) string {
	if p < 0 {
		return "−" + orders.Pounds(-p)
	}
	return orders.Pounds(p)
}
