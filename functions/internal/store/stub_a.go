package store

import (
	"github.com/tradeshop/functions/internal/orders"
)

// This file stands in for engineer A's part of issue 36 (the order's card attribute)
// until it is merged; the lead deletes it then.

// cardItem is an order's card attribute.
type cardItem struct {
	Attempt int    `dynamodbav:"attempt"`
	Session string `dynamodbav:"session"`
	State   string `dynamodbav:"state"`
	Failure string `dynamodbav:"failure"`
	At      int64  `dynamodbav:"at"`
}

func (c *cardItem) toCard() *orders.CardState {
	if c == nil {
		return nil
	}
	return &orders.CardState{Attempt: c.Attempt, Session: c.Session, State: c.State, Failure: c.Failure, At: timeOfMs(c.At)}
}
