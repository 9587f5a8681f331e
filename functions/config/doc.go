// Package config holds the shop's business constants — minimum order, delivery
// options and charges, the free-delivery threshold, default VAT rate, contact details,
// the pro-forma bank account — and its identity in law (trading and legal name,
// registered office, company and VAT numbers) from shop.json, the one file the site
// build reads too. Load checks it against shop-schema.json, the rules the site's
// validator (site/lib/shop-validate.mjs) interprets too; shop-vectors.json is the
// test both run.
package config
