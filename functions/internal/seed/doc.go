// Package seed generates the shop's deterministic seed catalogue: the seven outlet
// ranges of the header menu, every category group the menu names, and a realistic,
// reproducible set of products with generated SVG images. The same inputs always give
// the same catalogue, so loading it twice writes the same items.
package seed
