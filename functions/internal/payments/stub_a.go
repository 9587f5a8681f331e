package payments

// This file stands in for engineer A's part of issue 36 (payments.MethodCard) until it
// is merged; the lead deletes it then.

// MethodCard is a card payment through Stripe.
const MethodCard = "card"
