package store

import (
	"time"

	"github.com/tradeshop/functions/internal/outbox"
)

// pkOutbox is the partition of emails waiting to be sent (sk the message id).
const pkOutbox = "OUTBOX"

// Outbox record states.
const (
	outboxPending = "pending"
)

// outboxItem is an email waiting to be sent (pk OUTBOX, sk its id).
type outboxItem struct {
	PK        string `dynamodbav:"pk"`
	SK        string `dynamodbav:"sk"`
	To        string `dynamodbav:"to"`
	Subject   string `dynamodbav:"subject"`
	Text      string `dynamodbav:"text"`
	HTML      string `dynamodbav:"html"`
	State     string `dynamodbav:"state"`
	CreatedAt int64  `dynamodbav:"createdAt"` // Unix ms
	Attempts  int    `dynamodbav:"attempts"`
	// NextAt is when the sender may next try it (Unix ms).
	NextAt int64 `dynamodbav:"nextAt"`
}

// putOutbox adds the write of message m to t, to be sent from now: the same event never
// writes a message twice (its id is taken).
func (s *Store) putOutbox(t *txn, m outbox.Message, now time.Time) error {
	return t.put(role{}, s.table, outboxItem{PK: pkOutbox, SK: m.ID, To: m.To, Subject: m.Subject, Text: m.Text, HTML: m.HTML,
		State: outboxPending, CreatedAt: now.UnixMilli(), NextAt: now.UnixMilli()}, notThere)
}
