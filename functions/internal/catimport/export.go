package catimport

import (
	"cmp"
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tradeshop/functions/internal/catalogue"
)

// SafeCell keeps a spreadsheet from reading a cell as a formula: a cell starting with
// = + - or @ is written with a leading apostrophe, which the import takes off again.
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// UnsafeCell undoes SafeCell.
func UnsafeCell(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@", rune(s[1])) {
		return s[1:]
	}
	return s
}

func num(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// optionalPrice is FormatPrice, or "" for 0 (a product without an RRP).
func optionalPrice(pence int64) string {
	if pence == 0 {
		return ""
	}
	return FormatPrice(pence)
}

// WriteProducts writes products as the import's products CSV, in SKU order: importing
// it again changes nothing.
func WriteProducts(w io.Writer, products []catalogue.Product) error {
	cw := csv.NewWriter(w)
	header := make([]string, len(productColumns))
	for i, c := range productColumns {
		header[i] = c.key
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	ps := slices.Clone(products)
	slices.SortFunc(ps, func(a, b catalogue.Product) int { return cmp.Compare(a.SKU, b.SKU) })
	for _, p := range ps {
		rec := []string{p.SKU, SafeCell(p.Name), SafeCell(p.Description), p.RangeURLText, strconv.Itoa(p.CategoryID),
			strconv.Itoa(p.PackSize), FormatPrice(p.UnitPrice), strconv.Itoa(p.VATRate), strconv.Itoa(p.Stock),
			statusText(p.Status), p.LargeImg, num(p.SortOrder), p.Barcode, optionalPrice(p.RRP), FormatBreaks(p.Breaks)}
		rec = append(rec, forwardRecord(p.Forward)...)
		rec = append(rec, facetRecord(p)...)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteStructure writes ranges and categories as the import's second CSV.
func WriteStructure(w io.Writer, ranges []catalogue.Range, cats []catalogue.Category) error {
	cw := csv.NewWriter(w)
	header := make([]string, len(structureColumns))
	for i, c := range structureColumns {
		header[i] = c.key
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	rs := slices.Clone(ranges)
	slices.SortFunc(rs, func(a, b catalogue.Range) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.URLText, b.URLText))
	})
	for _, r := range rs {
		if err := cw.Write([]string{"range", "", r.URLText, SafeCell(r.Name), "", "", SafeCell(r.Description), num(r.Order)}); err != nil {
			return err
		}
	}
	cs := slices.Clone(cats)
	slices.SortFunc(cs, func(a, b catalogue.Category) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.ID, b.ID))
	})
	for _, c := range cs {
		if err := cw.Write([]string{"category", strconv.Itoa(c.ID), c.Slug, SafeCell(c.Name), c.RangeURLText, SafeCell(c.Group), "", num(c.Order)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
