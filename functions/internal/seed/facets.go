package seed

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
)

// The seed's facets (docs/catalogue.md "Facets") follow from what a product is: its
// category says the occasion and, for most greeting cards, the recipient; its subject
// refines both (a relation, an age, an occasion of the Occasions Cards); its name's style
// word is its style. They are derived, not drawn, so no product's other figures move.

// categoryFacets are the facet values every product of a category has.
var categoryFacets = map[int]map[string][]string{
	101: {catalogue.FacetOccasion: {"birthday"}, catalogue.FacetRecipient: {"her"}},
	102: {catalogue.FacetOccasion: {"birthday"}, catalogue.FacetRecipient: {"him"}},
	103: {catalogue.FacetOccasion: {"birthday"}, catalogue.FacetStyle: {"humour"}},
	104: {catalogue.FacetOccasion: {"any-occasion"}},
	105: {catalogue.FacetOccasion: {"birthday"}, catalogue.FacetRecipient: {"friend"}},
	106: {catalogue.FacetOccasion: {"birthday"}},
	107: {catalogue.FacetOccasion: {"birthday"}},
	108: {catalogue.FacetOccasion: {"new-baby"}, catalogue.FacetRecipient: {"baby"}},
	109: {catalogue.FacetOccasion: {"sympathy"}},
	110: {catalogue.FacetOccasion: {"wedding"}, catalogue.FacetRecipient: {"couple"}},
	302: {catalogue.FacetOccasion: {"halloween"}},
	303: {catalogue.FacetOccasion: {"valentines"}},
	304: {catalogue.FacetOccasion: {"mothers-day"}},
	305: {catalogue.FacetOccasion: {"easter"}},
	306: {catalogue.FacetOccasion: {"fathers-day"}},
	603: {catalogue.FacetOccasion: {"birthday"}},
	702: {catalogue.FacetOccasion: {"thank-you"}},
	805: {catalogue.FacetRecipient: {"child"}},
	955: {catalogue.FacetOccasion: {"sympathy"}},
}

// subjectFacets are the values a subject adds, by category: "facet:id" words.
var subjectFacets = map[int]map[string]string{
	106: relations,
	111: {
		"Anniversary": "occasion:anniversary recipient:couple", "Congratulations": "occasion:congratulations",
		"Get Well Soon": "occasion:get-well", "Good Luck": "occasion:good-luck", "New Home": "occasion:new-home",
		"Retirement": "occasion:retirement", "Thank You": "occasion:thank-you", "Exam Success": "occasion:exam-success",
		"Engagement": "occasion:engagement recipient:couple", "Driving Test": "occasion:driving-test",
		"Leaving": "occasion:leaving", "Christening": "occasion:christening recipient:baby",
	},
	120: {
		"Open Birthday": "occasion:birthday", "Mum Birthday": "occasion:birthday recipient:mum",
		"Dad Birthday": "occasion:birthday recipient:dad", "Age Badge": "occasion:birthday",
		"Kids Birthday": "occasion:birthday recipient:child", "Thank You": "occasion:thank-you",
		"Get Well": "occasion:get-well", "Sympathy": "occasion:sympathy",
		"Congratulations": "occasion:congratulations", "Anniversary": "occasion:anniversary recipient:couple",
	},
	203: {
		"Mum and Dad": "recipient:mum recipient:dad", "Grandparents": "recipient:nan recipient:grandad",
		"Son and Partner": "recipient:son", "Daughter and Family": "recipient:daughter", "Brother": "recipient:brother",
		"Sister": "recipient:sister", "Nan": "recipient:nan", "Grandad": "recipient:grandad", "Wife": "recipient:wife",
		"Husband": "recipient:husband",
	},
	304: {"Mum": "recipient:mum", "Mam": "recipient:mum", "Nan": "recipient:nan", "Special Mum": "recipient:mum",
		"Tulips": "recipient:mum", "Teacup": "recipient:mum"},
	306: {"Dad": "recipient:dad", "Daddy": "recipient:dad", "Grandad": "recipient:grandad", "Best Dad": "recipient:dad",
		"Tools": "recipient:dad", "Classic Car": "recipient:dad"},
	401: {"Birthday Balloons": "occasion:birthday"},
	403: {"Kids": "recipient:child"},
	502: {"Happy Birthday": "occasion:birthday", "Congratulations": "occasion:congratulations", "Age Bunting": "occasion:birthday",
		"Retirement": "occasion:retirement"},
	504: {"Number": "occasion:birthday"},
	505: {"Happy Birthday": "occasion:birthday", "Age": "occasion:birthday", "Wedding": "occasion:wedding recipient:couple"},
	601: {"Happy Birthday": "occasion:birthday", "New Baby": "occasion:new-baby recipient:baby", "Congratulations": "occasion:congratulations"},
	602: {"Printed Birthday": "occasion:birthday"},
	701: {"Birthday Party": "occasion:birthday", "Wedding": "occasion:wedding", "Christening": "occasion:christening",
		"Baby Shower": "occasion:new-baby", "Engagement": "occasion:engagement"},
	702: {"Kids": "recipient:child"},
	801: {"Best Mum": "recipient:mum", "Best Dad": "recipient:dad", "Grandad": "recipient:grandad", "Nan": "recipient:nan", "Friend": "recipient:friend"},
	802: {"Dad": "recipient:dad", "Mum": "recipient:mum", "Lucky Horseshoe": "occasion:good-luck"},
	803: {"Friends": "recipient:friend", "New Baby": "occasion:new-baby recipient:baby", "Wedding": "occasion:wedding recipient:couple"},
	954: {"Mum": "recipient:mum", "Dad": "recipient:dad", "Friend": "recipient:friend", "Lucky Charm": "occasion:good-luck"},
	955: {"Mum": "recipient:mum", "Dad": "recipient:dad", "Nan": "recipient:nan", "Grandad": "recipient:grandad"},
}

// relations are the Relations Cards' subjects: each the recipient of its name.
var relations = func() map[string]string {
	out := map[string]string{}
	for _, s := range []string{"Mum", "Dad", "Nan", "Grandad", "Sister", "Brother", "Daughter", "Son", "Auntie", "Uncle", "Niece", "Nephew", "Wife", "Husband"} {
		out[s] = "recipient:" + strings.ToLower(s)
	}
	return out
}()

// christmasRange is the outlet range whose every product is for Christmas.
const christmasRange = "wholesale-christmas"

// facetsOf are the facets of a product of category d with this style word and subject.
func facetsOf(d catDef, style, subject string) catalogue.Facets {
	vals := map[string][]string{catalogue.FacetStyle: {style}}
	for k, v := range categoryFacets[d.id] {
		vals[k] = append(vals[k], v...)
	}
	if d.rng == christmasRange {
		vals[catalogue.FacetOccasion] = append(vals[catalogue.FacetOccasion], "christmas")
	}
	for _, kv := range strings.Fields(subjectFacets[d.id][subject]) {
		k, v, _ := strings.Cut(kv, ":")
		vals[k] = append(vals[k], v)
	}
	if age, ok := strings.CutPrefix(subject, "Age "); ok && (d.id == 107 || d.id == 603) {
		vals[catalogue.FacetAge] = append(vals[catalogue.FacetAge], age)
	}
	var f catalogue.Facets
	for k, v := range vals {
		ids, err := catalogue.ParseFacetCell(k, strings.Join(v, "|"))
		if err != nil {
			panic(fmt.Sprintf("seed: category %d, %s %s: %v", d.id, style, subject, err)) // the tables above are wrong
		}
		f.Set(k, ids)
	}
	return f
}

// soldOut are seed products with no stock whatever their draw: Female Birthday Cards has
// then two out of stock on its first page (GC101-00035 is drawn so), which the filters'
// tests hide with "in stock now".
var soldOut = map[string]bool{"GC101-00024": true}

// publishedSpan is how many days back the seed's products were published; one in
// newShare within the last newWithin days, the rest from oldFrom days back.
const (
	publishedSpan = 200
	newShare      = 8
	newWithin     = 56
	oldFrom       = 66
)

// MarkPublished dates each product of c: a London day within the last publishedSpan days
// before now, derived from its SKU (so the same SKU is always as old), about one in
// newShare within the last newWithin days ("new in" with a few days' margin either side
// of its 60), the rest older than oldFrom days.
func MarkPublished(c Catalogue, now time.Time) {
	today, _ := time.Parse(time.DateOnly, catalogue.LondonDate(now))
	for i := range c.Products {
		p := &c.Products[i]
		h := fnv.New64a()
		h.Write([]byte(p.SKU))
		sum := h.Sum64()
		days := oldFrom + int(sum>>8%uint64(publishedSpan-oldFrom))
		if sum%newShare == 0 {
			days = int(sum >> 8 % newWithin)
		}
		p.Published = today.AddDate(0, 0, -days).Format(time.DateOnly)
	}
}
