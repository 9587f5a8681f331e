package catimport

import (
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/store"
)

// colPublished is the column of the date a product was first published
// (docs/catalogue-import.md "Facets and the published date"); the facet columns are the
// vocabulary's keys (catalogue.FacetDefs).
const colPublished = "published"

// facetCells reads a row's facet cells (each of catalogue.FacetDefs' keys). keep lists
// the facets the row has no cell for (a file without the column): the product's own
// values stay. A blank cell clears the facet. Problems name the column.
func (p *problems) facetCells(r record) (f catalogue.Facets, keep map[string]bool, ok bool) {
	ok = true
	for _, d := range catalogue.FacetDefs() {
		if _, has := r.cells[d.Key]; !has {
			if keep == nil {
				keep = map[string]bool{}
			}
			keep[d.Key] = true
			continue
		}
		ids, err := catalogue.ParseFacetCell(d.Key, r.get(d.Key))
		if err != nil {
			p.problem(r.line, d.Key, err.Error())
			ok = false
			continue
		}
		f.Set(d.Key, ids)
	}
	return f, keep, ok
}

// publishedCell reads a row's published date: "" for a blank cell or none, which keeps
// the product's date (a new product is published on the import's day).
func (p *problems) publishedCell(r record) (string, bool) {
	s := r.get(colPublished)
	if s == "" {
		return "", true
	}
	if _, err := time.Parse(isoDate, s); err != nil {
		p.problemf(r.line, "published date", "The published date must be a date written yyyy-mm-dd, such as 2026-10-01, or empty to keep the product's (found %q).", Clip(s))
		return "", false
	}
	return s, true
}

// withFacets is p with the row's facets and published date over old's: a facet the row
// has no cell for, and a published date it leaves empty, are old's.
func withFacets(p catalogue.Product, row Row, old catalogue.Product) catalogue.Product {
	p.Facets = row.Facets
	for key := range row.KeepFacets {
		p.Facets.Set(key, old.Facets.Get(key))
	}
	p.Published = row.Published
	if p.Published == "" {
		p.Published = old.Published
	}
	return p
}

// facetRecord is a product's facets and published date as the export's cells.
func facetRecord(p catalogue.Product) []string {
	var out []string
	for _, d := range catalogue.FacetDefs() {
		out = append(out, catalogue.FormatFacetCell(p.Facets.Get(d.Key)))
	}
	return append(out, p.Published)
}

// keptFacetsProblems finds the rows that keep a product's facet (no cell for it) while
// the product holds a value the vocabulary no longer has: such a product is refused
// until the file gives that facet's column (facets.json's rule).
func keptFacetsProblems(file string, rows []Row, tProducts []store.ImportProduct) problems {
	p := problems{file: file}
	facets := map[string]catalogue.Facets{}
	for _, tp := range tProducts {
		if !tp.Facets.IsZero() {
			facets[tp.SKU] = tp.Facets
		}
	}
	for _, row := range rows {
		old, ok := facets[row.SKU]
		if !ok {
			continue
		}
		for _, d := range catalogue.FacetDefs() {
			var kept catalogue.Facets
			kept.Set(d.Key, old.Get(d.Key))
			if row.KeepFacets[d.Key] && kept.Check() != nil {
				p.problemf(row.Line, d.Key, "The product holds the %s %s, which is no longer one the shop knows, and this file has no %s column to change it; give the column.",
					d.Key, catalogue.FormatFacetCell(old.Get(d.Key)), d.Key)
			}
		}
	}
	return p
}
