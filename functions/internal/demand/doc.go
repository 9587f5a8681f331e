// Package demand is the staff view of forward demand (docs/forward-orders.md "Demand"):
// per forward product, and per range, the units ordered, expected, received, allocated,
// backordered and cancelled, in all and by account, for the buyer placing the supplier
// order. It reads the allocation ledger (package forward) and the deliveries (package
// receiving) through the small Store it declares and writes nothing; no HTTP and no AWS.
package demand
