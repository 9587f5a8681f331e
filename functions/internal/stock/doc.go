// Package stock is the back office's work on a product's stock (docs/back-office.md): a
// product's stock read with its audit trail, and a change of it, set on condition it is
// still the number the page showed or adjusted by a number of units (tried again when an
// order took stock meanwhile), never below none, with the reason in the audit trail. It
// sits next to orders.Lifecycle on the domain floor: no HTTP, and the store behind Store,
// the small interface it declares, so its tests run on an in-memory fake.
package stock
