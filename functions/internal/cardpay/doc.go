// Package cardpay takes card payments through Stripe (docs/payments.md): the Checkout
// Session a buyer pays an order's invoice through ("Pay now"), the webhook events that
// record what happened, refunds to the card, and, in the local stage only, the local
// payment page that stands in for Stripe's hosted page and delivers real signed events.
// The amount and currency always come from the server's order, never the browser.
package cardpay
