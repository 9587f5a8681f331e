// Package payments records what trade buyers pay and allocates it to their invoices,
// and draws each account's ledger: its invoices and payments (and, once they are
// issued, credit notes) with a running balance, what is due and what is overdue
// (docs/invoices.md "Payments"). Payments are documents: recorded once and never
// changed; allocating one moves only what it has left to allocate and what its invoices
// still owe, under conditions the store holds so that two members of staff at once can
// never allocate more than a payment holds, nor more to an invoice than it owes.
package payments
