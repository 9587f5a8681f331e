package orders

import (
	"regexp"

	"github.com/tradeshop/functions/internal/text"
)

// The shapes of the ids an order request carries, checked before any read: an order
// number of another shape is a 404 in a path, a key of another shape a 400.
var (
	// idShape is the human-friendly order number the store hands out: TS- and
	// 100000 plus a counter.
	idShape = regexp.MustCompile(`^TS-[0-9]{6,19}$`)
	// keyShape is the page's idempotency key: one per checkout.
	keyShape = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)
	// optionShape is a delivery option id of shop.json.
	optionShape = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)
)

// ValidID reports whether s has an order number's shape: TS-100001.
func ValidID(s string) bool { return idShape.MatchString(s) }

// ValidKey reports whether s has an idempotency key's shape: 16 to 64 letters, digits,
// - or _.
func ValidKey(s string) bool { return keyShape.MatchString(s) }

// ValidOptionID reports whether s has a delivery option id's shape: next-day.
func ValidOptionID(s string) bool { return optionShape.MatchString(s) }

// DeliveryNote is the order's free-text note for the carrier, under the one text rule
// (internal/text). It is the one field that may hold line breaks (the page's box is
// several lines): LF only, CRLF and CR become LF.
var DeliveryNote = text.Field{Name: "delivery_note", Label: "Delivery note", Max: 300, Lines: true}
