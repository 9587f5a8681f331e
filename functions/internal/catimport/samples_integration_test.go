package catimport_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/pricing"
)

// TestTheSamplesImport: the sample files of docs/catalogue-import.md load into the seed
// catalogue with their picture, published as two WebP squares named by content; the same
// rows as JSON lines then change nothing; a picture that is not one is refused on its line.
func TestTheSamplesImport(t *testing.T) {
	t.Parallel()
	st, _ := seeded(t, 300)
	ctx := context.Background()
	dir := filepath.Join("..", "..", "..", "samples", "catalogue")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mediaDir := t.TempDir()
	in := catimport.Input{ProductsName: "products.csv", Products: read("products.csv"), StructureName: "categories.csv",
		Structure: read("categories.csv"), Images: catimport.FolderImages(filepath.Join(dir, "images"), media.NewDirStore(mediaDir))}
	pl := apply(t, st, in)
	if pl.New != 4 || pl.NewCategories != 1 || pl.Discontinued != 0 {
		t.Fatalf("samples plan %+v", pl.Summary)
	}
	got := bySKU(t, st)
	card := got["TS-CARD-001"]
	if !strings.HasPrefix(card.LargeImg, "/media/products/") || !strings.HasSuffix(card.LargeImg, "-l.webp") || !strings.HasSuffix(card.SmallImg, "-s.webp") {
		t.Fatalf("picture paths %q %q", card.SmallImg, card.LargeImg)
	}
	for _, p := range []string{card.SmallImg, card.LargeImg} {
		if fi, err := os.Stat(filepath.Join(mediaDir, strings.TrimPrefix(p, "/media/"))); err != nil || fi.Size() == 0 {
			t.Fatalf("%s not published: %v", p, err)
		}
	}
	if got["TS-CARD-003"].Status != catalogue.StatusDiscontinued || got["TS-WRAP-001"].Stock != 0 || got["TS-CARD-002"].UnitPrice != 110 {
		t.Fatalf("sample rows read %+v %+v %+v", got["TS-CARD-003"], got["TS-WRAP-001"], got["TS-CARD-002"])
	}
	if card.RRP != 199 || !slices.Equal(card.Breaks, pricing.Ladder{{From: 6, Price: 80}, {From: 12, Price: 75}}) ||
		got["TS-CARD-002"].RRP != 249 || !slices.Equal(got["TS-CARD-002"].Breaks, pricing.Ladder{{From: 6, Percent: 5}, {From: 12, Percent: 10}}) ||
		got["TS-CARD-003"].RRP != 0 || got["TS-CARD-003"].Breaks != nil {
		t.Fatalf("sample RRPs and breaks read %+v %+v %+v", card, got["TS-CARD-002"], got["TS-CARD-003"])
	}
	if !slices.Equal(card.Facets.Occasion, []string{"thank-you"}) || !slices.Equal(card.Facets.Style, []string{"gold-foil"}) ||
		card.Published != catalogue.LondonDate(time.Now()) || got["TS-CARD-002"].Published != "2026-10-01" ||
		!slices.Equal(got["TS-CARD-003"].Facets.Style, []string{"pastel", "botanical"}) || !got["TS-WRAP-001"].Facets.IsZero() {
		t.Fatalf("sample facets and dates read %+v %+v %+v", card, got["TS-CARD-002"], got["TS-CARD-003"])
	}

	// The JSON-lines sample holds two of the same products: nothing to change.
	jl := catimport.Input{ProductsName: "products.jsonl", Products: read("products.jsonl"), Images: in.Images}
	if pl := apply(t, st, jl); !pl.Nothing() || pl.Unchanged != 2 {
		t.Fatalf("JSON lines sample %+v", pl.Summary)
	}

	// A "picture" that is a text file is refused with its line.
	pics := t.TempDir()
	if err := os.WriteFile(filepath.Join(pics, "card.jpg"), []byte("not a picture at all, just some words"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := catimport.Input{ProductsName: "bad.csv", Images: catimport.FolderImages(pics, media.NewDirStore(mediaDir)),
		Products: []byte("sku,name,category,pack_size,unit_price,vat_rate,image\nTS-X-1,Card,111,6,1.00,20,card.jpg\nTS-X-2,Card 2,111,6,1.00,20,../products.csv\nTS-X-3,Card 3,111,6,1.00,20,missing.png\n")}
	_, err := catimport.Check(ctx, st, bad)
	if err == nil || !strings.Contains(problemsText(err), "bad.csv: line 2: The picture \"card.jpg\" is not a JPEG, PNG or WebP picture") ||
		!strings.Contains(problemsText(err), "bad.csv: line 3: The picture \"../products.csv\" is not inside the pictures folder.") ||
		!strings.Contains(problemsText(err), "bad.csv: line 4: The picture \"missing.png\" is not in the pictures folder") {
		t.Fatalf("bad pictures: %s", problemsText(err))
	}
}

func problemsText(err error) string {
	bad, ok := err.(*catimport.Invalid)
	if !ok {
		if err == nil {
			return "<nil>"
		}
		return err.Error()
	}
	var s []string
	for _, p := range bad.Problems {
		s = append(s, p.String())
	}
	return strings.Join(s, "\n")
}
