// Package coupons is the back office's work on coupons (docs/back-office.md): the rules a
// coupon staff create or edit must keep, and the save itself (its audit entry, the write
// on the version the page read, the refusal when someone else saved first, the coupon
// read back with its trail). It sits next to orders.Lifecycle on the domain floor: no
// HTTP, and the store behind Store, the small interface it declares.
//
// The coupon and change records are the store's own types (store.StaffCoupon,
// store.CouponChange): Service reads and writes them only through Store, so its tests run
// on an in-memory fake without a database.
package coupons
