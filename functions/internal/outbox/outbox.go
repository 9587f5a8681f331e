// Package outbox is the shape of an email waiting to be sent: the transaction that makes
// an order, a dispatch or a cancellation true writes its emails as outbox records in the
// same write (store), and a sender delivers each one and marks it sent (docs/back-office.md
// "Emails"). It imports nothing of the shop, so the order rules, the templates (package
// mail) and the store can all name it.
package outbox

// Message is one email. ID is its key in the outbox and says what it is for
// ("TS-100001/confirmation"): one event writes one message of an ID, so a retried
// transaction or sender never makes a second.
type Message struct {
	ID string
	To string
	// ReplyTo is where a reply goes ("" for the From address): the shop's contact
	// address on the buyer's emails, the buyer's on the new-order notice.
	ReplyTo string
	Subject string
	Text    string // the plain-text body
	HTML    string // the same as simple HTML
}

// Kinds of message, the second part of an ID.
const (
	KindConfirmation = "confirmation" // to the buyer when the order is placed
	KindNewOrder     = "new-order"    // to the shop's own address when an order is placed
	KindDispatch     = "dispatch"     // to the buyer when staff dispatch the order
	KindCancellation = "cancellation" // to the buyer when staff cancel the order
	KindCreditNote   = "credit-note"  // to the buyer when staff credit part of the order
	// KindForwardPlaced is to the buyer when a forward order is placed.
	KindForwardPlaced = "forward-placed"
)

// ID is the outbox id of the message of kind for order orderID.
func ID(orderID, kind string) string { return orderID + "/" + kind }
