// Package reminders sends the pre-order reminder (docs/forward-orders.md "Reminders"): a
// week before a forward product's order-by date, each buyer whose basket holds a line of
// it gets one email listing every such line, so that the season's pre-orders are not
// lost in baskets left for later. It runs daily with the other daily jobs (the
// statements Lambda, the local edge's daily loop) and by hand (cmd/reminders).
package reminders
