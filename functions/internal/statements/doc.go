// Package statements draws a trade account's statement (its open items, balance, what is
// overdue and how old it is) from the account's ledger (package payments), sends each
// account with a balance its statement by email once a month, and lists every account's
// balance and aged debt for staff (docs/statements.md).
package statements
