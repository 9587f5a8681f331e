// Package alerts is the back-in-stock alerts (docs/alerts.md): a signed-in buyer asks to
// be emailed when an out-of-stock product is back; each write that gives stock back or
// adds it (a staff change, an import, a cancellation, a delivery's leftovers) calls
// Notify, which turns each waiting alert of a product now in stock into its email and
// removes it, in one transaction per alert, so each waiting buyer is emailed exactly once
// however many notifiers race. The sweep calls Sweep to catch what a failed Notify
// missed. It sits on the domain floor: no HTTP, no AWS, the store behind Store.
package alerts
