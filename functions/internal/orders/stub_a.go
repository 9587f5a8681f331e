package orders

import "time"

// This file stands in for engineer A's part of issue 36 (orders.CardState) until it is
// merged; the lead deletes it then.

// CardState is an order's card payment through Stripe: its latest attempt.
type CardState struct {
	Attempt int
	Session string
	State   string
	Failure string
	At      time.Time
}

// The card attempt's states.
const (
	CardPending   = "pending"
	CardFailed    = "failed"
	CardAbandoned = "abandoned"
)
