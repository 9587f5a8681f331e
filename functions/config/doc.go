// Package config holds the shop's business constants — minimum order, delivery
// options and charges, the free-delivery threshold, default VAT rate and contact
// details — from shop.json, the one file the site build reads too.
package config
