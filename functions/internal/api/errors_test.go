package api

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/catimport"
	"github.com/tradeshop/functions/internal/csrf"
	"github.com/tradeshop/functions/internal/shoperr"
	"github.com/tradeshop/functions/internal/store"
)

// isSentence says whether s reads as a whole sentence: it starts with a capital letter
// (or a digit, or a quoted name) and ends with a full stop, a question mark or an
// exclamation mark.
func isSentence(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	return s != "" && (unicode.IsUpper(first) || unicode.IsDigit(first) || first == '"') &&
		strings.ContainsAny(s[len(s)-1:], ".?!")
}

// TestErrorAnswersAreSentences holds every message writeError sends, and every field
// problem it passes on, to a whole sentence (docs/api.md "Errors").
func TestErrorAnswersAreSentences(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err    error
		status int
	}{
		{bodyTooLarge(maxBodyBytes), http.StatusBadRequest},
		{invalidField("quantity", "Quantity is required."), http.StatusBadRequest},
		{&shoperr.FieldError{Field: "lines", Problem: "Lines must hold 1 to 100 lines."}, http.StatusBadRequest},
		{importTooLarge(maxImportBodyBytes), http.StatusRequestEntityTooLarge},
		{&shoperr.ConflictError{Msg: "Your basket is empty."}, http.StatusConflict},
		{&shoperr.LinesError{Lines: []shoperr.LineRefusal{{Index: 2, SKU: "GC101-00001", LineProblem: &shoperr.LineProblem{Code: shoperr.ProblemOutOfStock, Msg: "Card is out of stock."}}}}, http.StatusConflict},
		{&shoperr.NotFoundError{Msg: "There is no product GC101-00001."}, http.StatusNotFound},
		{&catimport.Invalid{Problems: []catimport.Problem{{Line: 2, Column: "sku", Message: "Must be a SKU."}}, Count: 1}, http.StatusUnprocessableEntity},
		{catimport.ErrStale, http.StatusConflict},
		{&store.ImportBusy{By: "staff@example.com"}, http.StatusConflict},
		{&errPublishRunning{}, http.StatusConflict},
		{&errNotAvailableHere{msg: noPublisher}, http.StatusNotImplemented},
		{auth.ErrInvalidToken, http.StatusUnauthorized},
		{errStaffOnly, http.StatusForbidden},
		{errNeedsRecentSignIn, http.StatusForbidden},
		{csrf.ErrCrossSite, http.StatusForbidden},
		{csrf.ErrInvalid, http.StatusForbidden},
		{errNotThroughSite, http.StatusForbidden},
		{&errTooManyReports{retryAfter: 20_000_000_000}, http.StatusTooManyRequests},
		{fmt.Errorf("get order: %w", store.ErrNotFound), http.StatusNotFound},
		{fmt.Errorf("get order: %w", store.ErrUnavailable), http.StatusServiceUnavailable},
		{auth.ErrKeysUnavailable, http.StatusServiceUnavailable},
		{&errServiceMissing{msg: "Pictures cannot be published here: this server has no media store (MEDIA_BUCKET)."}, http.StatusServiceUnavailable},
		{&errImportStopped{err: errors.New("put item: boom")}, http.StatusInternalServerError},
		{errors.New("boom"), http.StatusInternalServerError},
	} {
		status, body, _ := errorAnswer(tc.err)
		if status != tc.status {
			t.Errorf("%T %v: status %d, want %d", tc.err, tc.err, status, tc.status)
		}
		if !isSentence(body.Error) {
			t.Errorf("%T: error %q is not a whole sentence", tc.err, body.Error)
		}
		for field, problem := range body.Problems {
			if !isSentence(problem) {
				t.Errorf("%T: problem of %s %q is not a whole sentence", tc.err, field, problem)
			}
		}
		if status == http.StatusInternalServerError && strings.Contains(body.Error, "boom") {
			t.Errorf("a 500 carries err.Error(): %q", body.Error)
		}
	}
}

// TestDecodeMessagesAreSentences holds decode's own refusals to whole sentences.
func TestDecodeMessagesAreSentences(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"", "{", "{} {}", `{"unknown": 1}`, strings.Repeat(" ", maxBodyBytes+1)} {
		r, _ := http.NewRequest(http.MethodPost, "/api/x", strings.NewReader(body))
		_, err := decode[tokenRequest](r)
		if err == nil {
			t.Fatalf("%q decoded", body)
		}
		if _, answer, _ := errorAnswer(err); !isSentence(answer.Error) {
			t.Errorf("%.20q: %q is not a whole sentence", body, answer.Error)
		}
	}
}

// messagePackages are the packages whose refusals reach a buyer or staff member through
// writeError: their message texts are checked where they are written.
var messagePackages = []string{".", "../basket", "../orders", "../lists", "../store", "../catimport", "../pricing", "../coupons", "../stock", "../tradeaccounts", "../account"}

// TestMessageTextsAreSentences reads the source of messagePackages and holds every
// message text written there to a whole sentence: the Msg of a ConflictError or
// NotFoundError, the Problem of a FieldError, an errBadRequest's msg, the problem of
// invalidField, the Message of a catalogue import's Problem (also in a []Problem{{…}}
// whose elements leave out their type) and the format of its problemf, and each problem
// a Valid() puts in its problems map. Texts built at run
// time are checked where they are literal: a format's or a sum's first part must start a
// sentence and its last part end one.
func TestMessageTextsAreSentences(t *testing.T) {
	t.Parallel()
	for _, dir := range messagePackages {
		for path, f := range parseDir(t, dir) {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					for _, field := range messageFields(typeName(n.Type), n) {
						checkMessage(t, path, f, field)
					}
					// The elements of []Problem{{…}} are Problems with their type left out.
					if arr, ok := n.Type.(*ast.ArrayType); ok {
						for _, e := range n.Elts {
							if lit, ok := e.(*ast.CompositeLit); ok && lit.Type == nil {
								for _, field := range messageFields(typeName(arr.Elt), lit) {
									checkMessage(t, path, f, field)
								}
							}
						}
					}
				case *ast.CallExpr:
					if i, ok := messageArgs[typeName(n.Fun)]; ok && len(n.Args) > i {
						checkMessage(t, path, f, n.Args[i])
					}
				case *ast.AssignStmt:
					if ix, ok := n.Lhs[0].(*ast.IndexExpr); ok && len(n.Rhs) == 1 && isProblemsMap(ix.X) {
						checkMessage(t, path, f, n.Rhs[0])
					}
				}
				return true
			})
		}
	}
}

// messageArgs are the functions and methods that take a message text, by name, with the
// index of its argument: invalidField's problem, and the format of the catalogue
// import's problemf.
var messageArgs = map[string]int{"invalidField": 1, "problemf": 2}

// typeName answers the last name of an identifier or selector (a type, a function or a
// method), or "".
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// messageFields are the message texts of a composite literal of the named type:
// shoperr's Msg and Problem, errBadRequest's msg, a catalogue import Problem's Message.
func messageFields(name string, lit *ast.CompositeLit) []ast.Expr {
	want := map[string]string{"ConflictError": "Msg", "NotFoundError": "Msg", "FieldError": "Problem", "LineProblem": "Msg", "errBadRequest": "msg", "errTooLarge": "msg", "errServiceMissing": "msg", "Problem": "Message"}[name]
	var out []ast.Expr
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok && want != "" {
			if key, ok := kv.Key.(*ast.Ident); ok && key.Name == want {
				out = append(out, kv.Value)
			}
		}
	}
	return out
}

// isProblemsMap says whether x names a Valid's problems map (problems, or p).
func isProblemsMap(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && (id.Name == "problems" || id.Name == "p")
}

// checkMessage fails the test when the literal parts of a message text do not make a
// whole sentence.
func checkMessage(t *testing.T, path string, f *ast.File, e ast.Expr) {
	t.Helper()
	first, last := textEnds(e)
	at := func() string { return fmt.Sprintf("%s: %s", path, lineOf(f, e)) }
	if first != nil {
		if r, _ := utf8.DecodeRuneInString(*first); *first == "" || !(unicode.IsUpper(r) || unicode.IsDigit(r) || r == '"' || r == '%') {
			t.Errorf("%s: message %q does not start a sentence", at(), *first)
		}
	}
	if last != nil && !strings.HasSuffix(*last, ".") && !strings.HasSuffix(*last, "?") {
		t.Errorf("%s: message %q does not end a sentence", at(), *last)
	}
}

// textEnds answers the literal text a message starts and ends with, nil where that end
// is built at run time.
func textEnds(e ast.Expr) (first, last *string) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if s, err := strconv.Unquote(e.Value); err == nil {
			return &s, &s
		}
	case *ast.BinaryExpr:
		first, _ = textEnds(e.X)
		_, last = textEnds(e.Y)
		return first, last
	case *ast.ParenExpr:
		return textEnds(e.X)
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			first, last = textEnds(e.Args[0])
			if last != nil && (strings.HasSuffix(*last, "%s") || strings.HasSuffix(*last, "%v")) {
				last = nil // ends with a text given at run time
			}
			return first, last
		}
	}
	return nil, nil
}

func lineOf(f *ast.File, e ast.Expr) string {
	return strconv.Itoa(fset.Position(e.Pos()).Line)
}

var fset = token.NewFileSet()

// parseDir parses a package's files, tests left out.
func parseDir(t *testing.T, dir string) map[string]*ast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	out := map[string]*ast.File{}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out[path] = f
	}
	return out
}

// httpStatuses are net/http's Status constants by name, read from its source.
func httpStatuses(t *testing.T) map[string]int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(build.Default.GOROOT, "src", "net", "http", "status.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == 1 && len(v.Values) == 1 {
			if lit, ok := v.Values[0].(*ast.BasicLit); ok && lit.Kind == token.INT {
				out[v.Names[0].Name], _ = strconv.Atoi(lit.Value)
			}
		}
		return true
	})
	if out["StatusTeapot"] != http.StatusTeapot {
		t.Fatalf("read net/http's statuses wrongly: %v", out)
	}
	return out
}

// statusWriters are the functions allowed to write a status they are given: writeError
// decides error statuses, encode and the status recorder pass one on.
var statusWriters = map[string]bool{"writeError": true, "encode": true, "WriteHeader": true}

// TestErrorStatusesOnlyInWriteError fails on any 4xx or 5xx status written outside
// writeError in this package: passed to encode, WriteHeader or http.Error as a constant,
// or as a variable by any function but the ones in statusWriters.
func TestErrorStatusesOnlyInWriteError(t *testing.T) {
	t.Parallel()
	statuses := httpStatuses(t)
	files := parseDir(t, ".")
	if len(files) < 10 {
		t.Fatalf("read %d files of the api package", len(files))
	}
	if _, err := os.Stat("encode.go"); err != nil {
		t.Fatal(err)
	}
	found := 0
	for path, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var status ast.Expr
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					if fun.Name == "encode" && len(call.Args) == 3 {
						status = call.Args[1]
					}
				case *ast.IndexExpr: // encode[T](…)
					if id, ok := fun.X.(*ast.Ident); ok && id.Name == "encode" && len(call.Args) == 3 {
						status = call.Args[1]
					}
				case *ast.SelectorExpr:
					switch {
					case fun.Sel.Name == "WriteHeader" && len(call.Args) == 1:
						status = call.Args[0]
					case fun.Sel.Name == "Error" && len(call.Args) == 3:
						if pkg, ok := fun.X.(*ast.Ident); ok && pkg.Name == "http" {
							status = call.Args[2]
						}
					}
				}
				if status == nil {
					return true
				}
				found++
				where := fmt.Sprintf("%s:%d in %s", path, fset.Position(call.Pos()).Line, fn.Name.Name)
				if statusWriters[fn.Name.Name] {
					return true
				}
				values, known := statusValues(status, fn, files, statuses)
				if !known {
					t.Errorf("%s writes a status that is not a constant: an error status goes through writeError", where)
				}
				for _, code := range values {
					if code >= 400 {
						t.Errorf("%s writes status %d: send the error through writeError", where, code)
					}
				}
				return true
			})
		}
	}
	if found < 20 {
		t.Fatalf("found only %d status writes: the test no longer sees them", found)
	}
}

// statusValues are the values a status expression can have, known when each is a constant:
// the constant itself, every constant a local variable is given in fn, or every constant
// the package's calls of fn pass for a parameter.
func statusValues(e ast.Expr, fn *ast.FuncDecl, files map[string]*ast.File, statuses map[string]int) ([]int, bool) {
	if code, ok := statusValue(e, statuses); ok {
		return []int{code}, true
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, false
	}
	var values []int
	known := true
	add := func(x ast.Expr) {
		code, ok := statusValue(x, statuses)
		values = append(values, code)
		known = known && ok
	}
	param := -1
	i := 0
	for _, field := range fn.Type.Params.List {
		for _, name := range field.Names {
			if name.Name == id.Name {
				param = i
			}
			i++
		}
	}
	if param >= 0 {
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) <= param {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == fn.Name.Name {
					add(call.Args[param])
				} else if f, ok := call.Fun.(*ast.Ident); ok && f.Name == fn.Name.Name {
					add(call.Args[param])
				}
				return true
			})
		}
		return values, known && len(values) > 0
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if l, ok := l.(*ast.Ident); ok && l.Name == id.Name {
					add(as.Rhs[i])
				}
			}
		}
		return true
	})
	return values, known && len(values) > 0
}

// statusValue is a status expression's value when it is a constant (http.StatusX or a
// number).
func statusValue(e ast.Expr, statuses map[string]int) (int, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		n, err := strconv.Atoi(e.Value)
		return n, err == nil
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && pkg.Name == "http" {
			n, ok := statuses[e.Sel.Name]
			return n, ok
		}
	}
	return 0, false
}

// TestHandlersLogWithTheirRequest holds the api package to slog's Context calls (and
// LogAttrs, which takes one): a line logged with the request's context carries its request
// id and endpoint (package metrics), so one request's lines can be found by its id
// (docs/operations.md); a plain Info or Error call would drop them.
func TestHandlersLogWithTheirRequest(t *testing.T) {
	t.Parallel()
	plain := []string{"Debug", "Info", "Warn", "Error", "Log"}
	for path, f := range parseDir(t, ".") {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !slices.Contains(plain, sel.Sel.Name) || len(call.Args) == 0 {
				return true
			}
			// A logger's plain call takes the message first: a string literal.
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				t.Errorf("%s: %s(%s, …) logs without the request's context: use %sContext(r.Context(), …)", path, sel.Sel.Name, lit.Value, sel.Sel.Name)
			}
			return true
		})
	}
}
