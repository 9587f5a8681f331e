// Package pricegroups is the back office's work on price groups (docs/pricing.md "Price
// groups"): a group's id and name rules, its CSV (read, checked against the catalogue,
// compared with the group as stored, applied, written back out) and the text of a break
// table ("6:0.90; 12:0.85"). Plain Go over the store.
package pricegroups
