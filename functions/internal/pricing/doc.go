// Package pricing holds the shop's trade pricing rules as plain Go: it imports no AWS
// and no HTTP. So far: merging an account's discounts over the public defaults.
package pricing
