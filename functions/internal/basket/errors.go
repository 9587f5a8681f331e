package basket

import "strconv"

// ConflictError is a request the shop refuses as things stand (out of stock, a basket
// just ordered): its message is for the buyer. OrderID names an order the buyer should
// see instead, if there is one.
type ConflictError struct {
	Msg     string
	OrderID string
}

func (e *ConflictError) Error() string { return e.Msg }

// NotFoundError is something asked for that does not exist; its message is for the buyer.
type NotFoundError struct{ Msg string }

func (e *NotFoundError) Error() string { return e.Msg }

// FieldError is a field of a request that breaks a rule.
type FieldError struct{ Field, Problem string }

func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }

// Plural is n and noun, the noun plural unless n is 1: "1 pack", "3 packs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
