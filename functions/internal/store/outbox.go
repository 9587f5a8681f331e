package store

import (
	"time"

	"github.com/tradeshop/functions/internal/outbox"
)

// pkOutbox is the partition of emails waiting to be sent (sk the message id); pkSent the
// partition of the emails sent (sk the message id), kept sentKeep (TTL).
const (
	pkOutbox = "OUTBOX"
	pkSent   = "SENT"
)

// Outbox record states (outbox.State*): a sent message's record leaves the outbox for SENT.
const (
	outboxPending = outbox.StatePending
	outboxSending = outbox.StateSending
	outboxFailed  = outbox.StateFailed
)

// outboxItem is an email waiting to be sent (pk OUTBOX, sk its id).
type outboxItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	To        string `dynamodbav:"to"`
	ReplyTo   string `dynamodbav:"replyTo,omitempty"`
	Subject   string `dynamodbav:"subject"`
	Text      string `dynamodbav:"text"`
	HTML      string `dynamodbav:"html"`
	State     string `dynamodbav:"state"`
	CreatedAt int64  `dynamodbav:"createdAt"` // Unix ms
	Attempts  int    `dynamodbav:"attempts"`
	// NextAt is when the sender may next try it (Unix ms).
	NextAt int64 `dynamodbav:"nextAt"`
	// LeaseUntil is when a sending message's claim ends (Unix ms): after it, another
	// sender may claim it. Claim is the claim's token.
	LeaseUntil int64  `dynamodbav:"leaseUntil,omitempty"`
	Claim      string `dynamodbav:"claim,omitempty"`
	// LastError is why the last attempt failed.
	LastError string `dynamodbav:"lastError,omitempty"`
}

// putOutbox adds the write of message m to t, to be sent from now: the same event never
// writes a message twice (its id is taken), nor again once it was sent (the condition
// check on its SENT record, kept 90 days: outbox_send.go). It adds two items to t.
func (s *Store) putOutbox(t *txn, m outbox.Message, now time.Time) error {
	if err := t.put(role{}, s.table, outboxItem{PK: pkOutbox, SK: m.ID, To: m.To, ReplyTo: m.ReplyTo, Subject: m.Subject, Text: m.Text, HTML: m.HTML,
		State: outboxPending, CreatedAt: now.UnixMilli(), NextAt: now.UnixMilli()}, notThere); err != nil {
		return err
	}
	return t.conditionCheck(role{}, s.table, key(pkSent, m.ID), notThere)
}
