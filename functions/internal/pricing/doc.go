// Package pricing holds the shop's trade pricing rules as plain Go on plain types: it
// imports no AWS and no HTTP. Money is int64 pence throughout.
//
// Rounding rule: every percentage of money is rounded half up to a whole penny, once,
// where it is taken: a line's discount on the line's list amount, a percent coupon on
// the goods total, a line's VAT on the line's net amount. A coupon's discount is shared
// across lines in proportion to their net amounts (largest remainder, so the shares add
// up exactly) before VAT is worked out per line, so VAT is charged on what is paid.
package pricing
