// Package text is the shop's one rule for free text a buyer types (business and billing
// names, address lines, the delivery note, the search text): the value is trimmed and
// NFC-normalised, control characters, zero-width characters and text-direction (bidi)
// controls are refused, and the length is counted in characters (runes) after that. The
// cleaned value is the one to store. docs/api.md "Text fields" lists the fields.
package text

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Field is one free-text field's rule.
type Field struct {
	// Name is the field as the API names it in a 400's problems ("company",
	// "deliver_to.line1").
	Name string
	// Label is the field in the buyer's words, starting with a capital ("Company name").
	Label string
	// Min and Max bound the length in characters after cleaning; Min 0 is optional.
	Min, Max int
	// Lines lets the value hold line breaks: LF only (CRLF and a lone CR become LF).
	// Without it a line break is a control character like any other.
	Lines bool
}

// Error is a value the rule refuses; Problem reads on from the field's label.
type Error struct {
	Field   string // the API's name of the field
	Label   string
	Problem string // "must not contain control characters such as tabs or line breaks"
}

// Sentence is the problem as a whole sentence naming the field: "Company name must not
// contain ….", as the API sends it.
func (e *Error) Sentence() string { return e.Label + " " + e.Problem + "." }

func (e *Error) Error() string { return e.Label + ": " + e.Problem }

// Problems for the characters the rule refuses.
const (
	problemControl      = "must not contain control characters such as tabs or line breaks"
	problemControlLines = "must not contain control characters such as tabs (line breaks are allowed)"
	problemInvisible    = "must not contain invisible characters such as zero-width spaces or text-direction controls"
)

// Clean answers v in the shop's form (trimmed, NFC, line breaks as LF where the field
// allows them), or an *Error naming the field when v holds a character the rule refuses
// or its length is out of bounds.
func (f Field) Clean(v string) (string, error) {
	if f.Lines {
		v = strings.ReplaceAll(v, "\r\n", "\n")
		v = strings.ReplaceAll(v, "\r", "\n")
	}
	v = strings.TrimSpace(norm.NFC.String(v))
	for _, r := range v {
		switch {
		case r == '\n' && f.Lines:
		case isControl(r):
			if f.Lines {
				return "", f.refuse(problemControlLines)
			}
			return "", f.refuse(problemControl)
		case isInvisible(r):
			return "", f.refuse(problemInvisible)
		}
	}
	n := utf8.RuneCountInString(v)
	switch {
	case n == 0 && f.Min > 0:
		return "", f.refuse("is required")
	case f.Min > 1 && (n < f.Min || n > f.Max):
		return "", f.refuse(fmt.Sprintf("must be %d to %d characters", f.Min, f.Max))
	case n > f.Max:
		return "", f.refuse(fmt.Sprintf("must be at most %d characters", f.Max))
	}
	return v, nil
}

func (f Field) refuse(problem string) *Error {
	return &Error{Field: f.Name, Label: f.Label, Problem: problem}
}

// isControl reports the C0 and C1 controls and DEL, and the Unicode line and paragraph
// separators (a line break by another name).
func isControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029
}

// isInvisible reports zero-width characters and bidi controls: characters that change
// how text reads without showing themselves ("evil" shown as "live").
func isInvisible(r rune) bool {
	switch {
	case r >= 0x200b && r <= 0x200f: // zero-width space, non-joiner, joiner; LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2060 && r <= 0x2064: // word joiner, invisible operators
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	case r == 0x061c, r == 0xfeff, r == 0x180e: // Arabic letter mark, BOM, Mongolian vowel separator
		return true
	}
	return false
}

// Under is f named inside an object: Under("deliver_to.") of line1 is deliver_to.line1.
func (f Field) Under(prefix string) Field {
	f.Name = prefix + f.Name
	return f
}

// Cleaner cleans several fields in turn, keeping every problem.
type Cleaner struct {
	Problems map[string]string
}

// Clean cleans *v by f's rule in place; a refused value is left as it was and its
// problem kept.
func (c *Cleaner) Clean(f Field, v *string) {
	out, err := f.Clean(*v)
	if err != nil {
		if c.Problems == nil {
			c.Problems = map[string]string{}
		}
		c.Problems[f.Name] = err.(*Error).Sentence()
		return
	}
	*v = out
}
