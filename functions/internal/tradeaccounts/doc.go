// Package tradeaccounts is the back office's work on trade accounts (docs/back-office.md
// "Credit"): the accounts listed and read with their audit trail, and a member of staff's
// change of one, approval for credit with its limit and the account's own discounts,
// written on the version the page read and audited. It sits next to orders.Lifecycle on
// the domain floor: no HTTP, and the store behind Store, the small interface it declares,
// so its tests run on an in-memory fake. (Package account holds what the basket and order
// rules need to know of an account; this package is staff's work on one.)
package tradeaccounts
