package outbox

import "time"

// The states of a message (docs/back-office.md "Emails"): pending until a sender claims
// it, sending while one holds its claim (a lease: a sender that dies leaves it to expire),
// sent once delivered (its record then moves out of the outbox), failed when the mail
// server refused it for good too many times (it stays in the outbox, no longer due).
const (
	StatePending = "pending"
	StateSending = "sending"
	StateSent    = "sent"
	StateFailed  = "failed"
)

// Claim is a message one sender has claimed: no other sender takes it before the claim's
// lease ends.
type Claim struct {
	Message
	// Attempts counts the claims of the message, this one included.
	Attempts int
	// Token names this claim: only its holder releases the message.
	Token string
}

// Status is where one message is.
type Status struct {
	ID        string
	State     string
	Attempts  int
	NextAt    time.Time // when a pending message is due
	SentAt    time.Time // when a sent one was marked sent
	LastError string    // why the last attempt failed
}
