package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/media"
	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/text"
)

// The back office's catalogue import (docs/back-office.md "Catalogue"): the page uploads
// each picture (POST /api/admin/catalogue/images), checks the files with the pictures'
// published paths (check), shows the plan, and applies the job it reviewed (apply). The
// files travel in the JSON body, so they are bounded by what one request to a Lambda may
// carry; bigger files are imported with scripts/catalogue import.

// maxImportBodyBytes bounds a check or apply body: the files as JSON text. A Lambda takes
// requests of at most 6 MB, with the rest of the request around the body.
const maxImportBodyBytes = 5 << 20

// maxPictureBytes bounds an uploaded picture. API Gateway hands a binary body to the
// Lambda base64-encoded (a third larger), so 4 MB is the most that fits in its 6 MB.
const maxPictureBytes = 4 << 20

// importTooLarge is the 413 of a check or apply body over maxImportBodyBytes.
func importTooLarge(limit int64) error {
	return &errTooLarge{msg: fmt.Sprintf("The files are larger than %d MB together, the most the back office takes in one request; "+
		"import a bigger catalogue with scripts/catalogue import (docs/catalogue-import.md).", limit>>20)}
}

// importFile is one file of a check or apply: its name (which says CSV or JSON lines and
// names it in problems) and its text.
type importFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// uploadedImage is one picture the page uploaded first: its published paths.
type uploadedImage struct {
	Small string `json:"small"`
	Large string `json:"large"`
}

// catalogueCheckRequest is POST /api/admin/catalogue/check.
type catalogueCheckRequest struct {
	Token      string                   `json:"token"`
	Products   *importFile              `json:"products"`
	Categories *importFile              `json:"categories"`
	Full       bool                     `json:"full"`
	Images     map[string]uploadedImage `json:"images"`
}

func (c catalogueCheckRequest) idToken() string { return c.Token }

// catalogueApplyRequest is POST /api/admin/catalogue/apply: the check's body and the job
// the check answered.
type catalogueApplyRequest struct {
	catalogueCheckRequest
	Job string `json:"job"`
}

// fileName is the rule of an import file's or a picture's name.
var fileName = text.Field{Label: "File name", Min: 1, Max: 200}

// importFileExt are the endings of a products or ranges and categories file.
var importFileExt = []string{".csv", ".jsonl", ".ndjson", ".json"}

// Published picture paths as package media makes them: /media/products/{name}-s.{ext}
// and the same name -l.
var (
	smallPath = regexp.MustCompile(`^/media/products/([a-z0-9][a-z0-9_-]{0,99})-s\.(webp|jpg|png)$`)
	largePath = regexp.MustCompile(`^/media/products/([a-z0-9][a-z0-9_-]{0,99})-l\.(webp|jpg|png)$`)
)

// maxUploadedImages bounds the pictures of one check.
const maxUploadedImages = 5000

func (c *catalogueCheckRequest) clean() map[string]string {
	var cl text.Cleaner
	if c.Products != nil {
		f := fileName
		f.Name = "products.name"
		cl.Clean(f, &c.Products.Name)
	}
	if c.Categories != nil {
		f := fileName
		f.Name = "categories.name"
		cl.Clean(f, &c.Categories.Name)
	}
	return cl.Problems
}

func (c catalogueCheckRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	ext := func(field string, f *importFile) {
		n := strings.ToLower(f.Name)
		for _, e := range importFileExt {
			if strings.HasSuffix(n, e) {
				return
			}
		}
		problems[field] = "The " + field + " file must be a .csv or .jsonl file."
	}
	switch {
	case c.Products == nil:
		problems["products"] = "The products file is required: {name, text}."
	default:
		ext("products.name", c.Products)
	}
	if c.Categories != nil {
		ext("categories.name", c.Categories)
	}
	if len(c.Images) > maxUploadedImages {
		problems["images"] = fmt.Sprintf("Upload at most %d pictures with one import.", maxUploadedImages)
	}
	for name, img := range c.Images {
		s, l := smallPath.FindStringSubmatch(img.Small), largePath.FindStringSubmatch(img.Large)
		switch {
		case name == "" || len(name) > 200:
			problems["images"] = "The pictures must be keyed by each picture's file name (at most 200 characters)."
		case s == nil || l == nil || s[1] != l[1] || s[2] != l[2]:
			problems["images"] = fmt.Sprintf("%q must be the small and large paths the picture upload answered: upload it again.", name)
		}
	}
	return problems
}

func (c catalogueApplyRequest) Valid(ctx context.Context) map[string]string {
	problems := c.catalogueCheckRequest.Valid(ctx)
	if !jobPattern.MatchString(c.Job) {
		problems["job"] = "The job must be the one the check answered: check the file first."
	}
	return problems
}

var jobPattern = regexp.MustCompile(`^[0-9a-f]{24}$`)

// input is the import the request asks for, its pictures looked up in its images.
func (c catalogueCheckRequest) input() catimport.Input {
	in := catimport.Input{ProductsName: c.Products.Name, Products: []byte(c.Products.Text), Full: c.Full, Images: uploadedImages(c.Images)}
	if c.Categories != nil {
		in.StructureName, in.Structure = c.Categories.Name, []byte(c.Categories.Text)
	}
	return in
}

// uploadedImages resolves an image cell to a picture the page uploaded with the file: by
// the cell as written, else by its last part (a cell written for the command line's
// picture folder, "cards/robin.jpg", finds the uploaded "robin.jpg").
func uploadedImages(m map[string]uploadedImage) catimport.ImageResolver {
	return func(_ context.Context, cell string) (media.Images, error) {
		img, ok := m[cell]
		if !ok {
			img, ok = m[path.Base(strings.ReplaceAll(cell, `\`, "/"))]
		}
		if !ok {
			return media.Images{}, &media.Problem{Msg: "was not uploaded with the file"}
		}
		return media.Images{Small: img.Small, Large: img.Large}, nil
	}
}

// writeImportError answers a check's or an apply's failure: 422 with the problems, 409 for
// a stale job or another import holding the lock, 500 saying to apply again for an import
// that stopped part-way; the rest as any endpoint.
func writeImportError(w http.ResponseWriter, r *http.Request, log *slog.Logger, pl *catimport.Plan, err error) {
	if pl != nil {
		err = &errImportStopped{err: err}
	}
	writeError(w, r, log, err)
}

// handleCatalogueCheck answers POST /api/admin/catalogue/check: the plan of the files
// against the table, or 422 with their problems. Nothing is written.
func handleCatalogueCheck(d catalogueDeps) http.Handler {
	return staffPostAtMost(d.staffGate, maxImportBodyBytes, importTooLarge, func(w http.ResponseWriter, r *http.Request, _ orders.Staff, req catalogueCheckRequest) {
		pl, err := catimport.Check(r.Context(), d.Store, req.input())
		if err != nil {
			writeImportError(w, r, d.Log, nil, err)
			return
		}
		encode(w, http.StatusOK, planAnswer{Plan: importPlanOf(pl)})
	})
}

// applyTimeout bounds an apply that goes on after its caller left (a closed tab): it is
// resumable, so one cut short is finished by applying again.
const applyTimeout = 5 * time.Minute

// handleCatalogueApply answers POST /api/admin/catalogue/apply: the import written, if
// its files are still the job the page reviewed (else 409), under the import lock (409
// while another import holds it).
func handleCatalogueApply(d catalogueDeps) http.Handler {
	return staffPostAtMost(d.staffGate, maxImportBodyBytes, importTooLarge, func(w http.ResponseWriter, r *http.Request, by orders.Staff, req catalogueApplyRequest) {
		// A page closed mid-way does not cut the import short.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), applyTimeout)
		defer cancel()
		pl, err := catimport.Apply(ctx, d.Store, req.input(), catimport.ApplyOptions{By: by, Expect: req.Job, Now: d.Now, Restock: d.Restock})
		if err != nil {
			writeImportError(w, r, d.Log, pl, err)
			return
		}
		encode(w, http.StatusOK, planAnswer{Plan: importPlanOf(pl)})
	})
}

// pictureTooLarge is the 413 of a picture over maxPictureBytes.
func pictureTooLarge(name string) error {
	return &errTooLarge{msg: fmt.Sprintf("%s is larger than %d MB, the most a picture uploaded in the back office may be; "+
		"save it smaller (2000 pixels across is plenty) or import it with scripts/catalogue import.", name, maxPictureBytes>>20)}
}

// handleCatalogueImages answers POST /api/admin/catalogue/images?name=FILE, the body the
// picture's bytes: the picture checked, made into the pages' two sizes and published to
// the media store, {name, small, large}; a picture that cannot be used is a 400 saying
// why. The ID token comes as a bearer token, as a read's does (the body is the picture).
func handleCatalogueImages(d catalogueDeps) http.Handler {
	return staffGet(d.staffGate, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		f := fileName
		f.Name = "name"
		name, err := f.Clean(r.URL.Query().Get("name"))
		if err != nil {
			writeError(w, r, d.Log, invalidField("name", err.(*text.Error).Sentence()))
			return
		}
		data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxPictureBytes))
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			writeError(w, r, d.Log, pictureTooLarge(name))
			return
		case err != nil:
			writeError(w, r, d.Log, &errBadRequest{msg: "The picture could not be read: upload it again."})
			return
		case len(data) == 0:
			writeError(w, r, d.Log, &errBadRequest{msg: name + " is empty: upload the picture again."})
			return
		}
		if d.Media == nil {
			writeError(w, r, d.Log, &errServiceMissing{msg: "Pictures cannot be published here: this server has no media store (MEDIA_BUCKET).", cause: "no media store"})
			return
		}
		imgs, err := media.Process(r.Context(), d.Media, name, data)
		var bad *media.Problem
		switch {
		case errors.As(err, &bad):
			writeError(w, r, d.Log, &errBadRequest{msg: name + " " + bad.Msg + "."})
			return
		case err != nil:
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, catalogueImageAnswer{Name: name, Small: imgs.Small, Large: imgs.Large})
	})
}

// handleCatalogueExport answers GET /api/admin/catalogue/export?file=products|categories:
// the catalogue as the import's CSV (importing it again changes nothing).
func handleCatalogueExport(d catalogueDeps) http.Handler {
	return staffGet(d.staffGate, func(w http.ResponseWriter, r *http.Request, _ orders.Staff) {
		file := r.URL.Query().Get("file")
		if file != "products" && file != "categories" {
			writeError(w, r, d.Log, invalidField("file", "The file must be products or categories."))
			return
		}
		ranges, cats, products, err := d.Store.Catalogue(r.Context())
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		var doc bytes.Buffer
		if file == "products" {
			err = catimport.WriteProducts(&doc, products)
		} else {
			err = catimport.WriteStructure(&doc, ranges, cats)
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		now := time.Now
		if d.Now != nil {
			now = d.Now
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+CatalogueExportName(file, now())+`"`)
		w.Header().Set("Cache-Control", "private, no-store")
		_, _ = w.Write(doc.Bytes())
	})
}

// CatalogueExportName is the file name of an export made at t: catalogue-products-2026-11-24.csv
// (the London day).
func CatalogueExportName(file string, t time.Time) string {
	return "catalogue-" + file + "-" + t.In(london).Format(time.DateOnly) + ".csv"
}
