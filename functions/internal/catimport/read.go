package catimport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tradeshop/functions/internal/catalogue"
)

// Problem is one thing wrong with an input file: its line (1 is the header; 0 for the
// whole file), the column's label and a sentence saying what is wrong.
type Problem struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line"`
	Column  string `json:"column,omitempty"`
	Message string `json:"message"`
}

// String reads "products.csv: line 212: The pack size must be a whole number from 1 to
// 1000 (found "0").": the message is a whole sentence that names its column already.
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File + ": ")
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	b.WriteString(p.Message)
	return b.String()
}

// column is one column of an import file: its key in the header (matched without regard
// to case, spaces, hyphens or underscores) and its label in messages.
type column struct {
	key, label string
	required   bool
}

// record is one data row: its line in the file and its cells by column key.
type record struct {
	line  int
	cells map[string]string
	has   map[string]bool // the columns the file has, shared by every record
}

func (r record) get(key string) string { return UnsafeCell(strings.TrimSpace(r.cells[key])) }

// NormKey folds a header cell: "Pack size", "pack_size" and "PACK-SIZE" are one column.
func NormKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}

// maxFileBytes bounds an import file (about 150,000 product rows).
const maxFileBytes = 64 << 20

// maxProblems is how many problems are listed; the count says how many there were.
const maxProblems = 200

// readRecords reads a CSV (header row) or JSON-lines file into records, checking the
// header against cols. A file is JSON lines when its name ends .jsonl, .ndjson or .json,
// or when its first non-blank character is "{".
func readRecords(name string, data []byte, cols []column) ([]record, []Problem) {
	if len(data) > maxFileBytes {
		return nil, []Problem{{File: name, Message: fmt.Sprintf("The file is %.1f MB; the most an import file may be is %d MB.", float64(len(data))/(1<<20), maxFileBytes>>20)}}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM, as spreadsheets write
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []Problem{{File: name, Message: "The file is empty."}}
	}
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		return nil, []Problem{{File: name, Line: line, Message: "The file is not UTF-8 text; save it as \"CSV UTF-8\" and choose it again."}}
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".jsonl") || strings.HasSuffix(lower, ".ndjson") || strings.HasSuffix(lower, ".json") ||
		bytes.TrimSpace(data)[0] == '{' {
		return readJSONLines(name, data, cols)
	}
	return readCSV(name, data, cols)
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func known(cols []column) map[string]bool {
	m := map[string]bool{}
	for _, c := range cols {
		m[c.key] = true
	}
	return m
}

func checkHeader(name string, line int, has map[string]bool, cols []column) []Problem {
	var ps []Problem
	for _, c := range cols {
		if c.required && !has[c.key] {
			ps = append(ps, Problem{File: name, Line: line, Column: c.label, Message: "The " + c.label + " column is missing from the header."})
		}
	}
	return ps
}

func readCSV(name string, data []byte, cols []column) ([]record, []Problem) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = false
	header, err := r.Read()
	if err != nil {
		return nil, []Problem{{File: name, Line: 1, Message: "The header row cannot be read: " + CSVReason(err) + "."}}
	}
	ok := known(cols)
	has := map[string]bool{}
	keys := make([]string, len(header))
	var ps []Problem
	for i, h := range header {
		k := NormKey(h)
		keys[i] = k
		switch {
		case k == "":
			continue
		case !ok[k]:
			ps = append(ps, Problem{File: name, Line: 1, Column: strings.TrimSpace(h), Message: fmt.Sprintf("The column %q is not one this import knows (%s).", strings.TrimSpace(h), labels(cols))})
		case has[k]:
			ps = append(ps, Problem{File: name, Line: 1, Column: strings.TrimSpace(h), Message: fmt.Sprintf("The column %q appears twice in the header.", strings.TrimSpace(h))})
		}
		has[k] = true
	}
	ps = append(ps, checkHeader(name, 1, has, cols)...)
	if len(ps) > 0 {
		return nil, ps
	}
	var out []record
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			ps = append(ps, Problem{File: name, Line: line, Message: "This line cannot be read as CSV: " + CSVReason(err) + "."})
			return nil, ps
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if len(rec) > len(keys) {
			ps = append(ps, Problem{File: name, Line: line, Message: fmt.Sprintf("This line has %d cells but the header has %d columns.", len(rec), len(keys))})
			if len(ps) >= maxProblems {
				break
			}
			continue
		}
		cells := make(map[string]string, len(rec))
		for i, v := range rec {
			if keys[i] != "" {
				cells[keys[i]] = v
			}
		}
		out = append(out, record{line: line, cells: cells, has: has})
	}
	return out, ps
}

// CSVReason says in staff's words why encoding/csv could not read a line.
func CSVReason(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
			return "a quote (\") is not closed or stands inside an unquoted cell"
		}
		return pe.Err.Error()
	}
	return err.Error()
}

func labels(cols []column) string {
	var l []string
	for _, c := range cols {
		l = append(l, c.key)
	}
	return strings.Join(l, ", ")
}

func readJSONLines(name string, data []byte, cols []column) ([]record, []Problem) {
	ok := known(cols)
	has := map[string]bool{}
	var out []record
	var ps []Problem
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := i + 1
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		var obj map[string]any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&obj); err != nil || d.More() {
			ps = append(ps, Problem{File: name, Line: line, Message: "This line is not one JSON object."})
			if len(ps) >= maxProblems {
				break
			}
			continue
		}
		cells := map[string]string{}
		for k, v := range obj {
			nk := NormKey(k)
			if !ok[nk] {
				ps = append(ps, Problem{File: name, Line: line, Column: k, Message: fmt.Sprintf("The field %q is not one this import knows (%s).", k, labels(cols))})
				continue
			}
			has[nk] = true
			switch v := v.(type) {
			case nil:
				cells[nk] = ""
			case string:
				cells[nk] = v
			case json.Number:
				cells[nk] = v.String()
			case bool:
				cells[nk] = strconv.FormatBool(v)
			case []any:
				// A facet's values may be a list of strings: ["birthday", "anniversary"].
				list, isList := stringList(v)
				if !isList || !listColumns[nk] {
					ps = append(ps, Problem{File: name, Line: line, Column: labelOf(cols, nk), Message: "The " + labelOf(cols, nk) + " must be a string or a number" + listHint(nk) + "."})
					continue
				}
				cells[nk] = strings.Join(list, "|")
			default:
				ps = append(ps, Problem{File: name, Line: line, Column: labelOf(cols, nk), Message: "The " + labelOf(cols, nk) + " must be a string or a number."})
			}
		}
		out = append(out, record{line: line, cells: cells, has: has})
	}
	if len(out) == 0 && len(ps) == 0 {
		ps = append(ps, Problem{File: name, Message: "The file holds no rows."})
	}
	// A JSON-lines file has no header: a required field must be on every line.
	for _, r := range out {
		for _, c := range cols {
			if _, present := r.cells[c.key]; c.required && !present && len(ps) < maxProblems {
				ps = append(ps, Problem{File: name, Line: r.line, Column: c.label, Message: "The " + c.label + " is missing from this line."})
			}
		}
	}
	return out, ps
}

// listColumns are the columns a JSON line may give as a list of strings: the facets.
var listColumns = map[string]bool{catalogue.FacetOccasion: true, catalogue.FacetRecipient: true, catalogue.FacetAge: true, catalogue.FacetStyle: true}

func listHint(key string) string {
	if listColumns[key] {
		return ", or a list of strings"
	}
	return ""
}

// stringList answers v's items when every one is a string.
func stringList(v []any) ([]string, bool) {
	out := make([]string, len(v))
	for i, it := range v {
		s, ok := it.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

func labelOf(cols []column, key string) string {
	for _, c := range cols {
		if c.key == key {
			return c.label
		}
	}
	return key
}
