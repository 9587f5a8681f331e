package text

import (
	"errors"
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	company := Field{Name: "company", Label: "Company name", Min: 2, Max: 100}
	line2 := Field{Name: "line2", Label: "Address line 2", Max: 100}
	town := Field{Name: "town", Label: "Town or city", Min: 1, Max: 60}
	note := Field{Name: "delivery_note", Label: "Delivery note", Max: 300, Lines: true}
	for _, tc := range []struct {
		name    string
		f       Field
		in      string
		want    string // cleaned value, when accepted
		problem string // the problem, when refused
	}{
		{"plain", company, "Acme Cards Ltd", "Acme Cards Ltd", ""},
		{"trimmed", company, "  Acme Cards Ltd \t\n", "Acme Cards Ltd", ""},
		{"NFD stored as NFC", company, "Cafe\u0301 Cards", "Caf\u00e9 Cards", ""},
		{"NFC counts characters, not bytes", company, strings.Repeat("é", 100), strings.Repeat("é", 100), ""},
		{"NFD that fits once composed", company, strings.Repeat("e\u0301", 100), strings.Repeat("\u00e9", 100), ""},
		{"NUL", company, "Acme\x00Cards", "", problemControl},
		{"CR", company, "Acme\rCards", "", problemControl},
		{"LF", company, "Acme\nCards", "", problemControl},
		{"CRLF", company, "Acme\r\nCards", "", problemControl},
		{"TAB", company, "Acme\tCards", "", problemControl},
		{"DEL", company, "Acme\x7fCards", "", problemControl},
		{"C1 control", company, "Acme\u0085Cards", "", problemControl},
		{"line separator", company, "Acme\u2028Cards", "", problemControl},
		{"bidi override: evil shown as live", company, "\u202Eevil", "", problemInvisible},
		{"bidi override inside", company, "Acme \u202Elive\u202C Ltd", "", problemInvisible},
		{"bidi isolate", company, "Acme \u2066x\u2069", "", problemInvisible},
		{"right-to-left mark", company, "Acme\u200f Ltd", "", problemInvisible},
		{"Arabic letter mark", company, "Acme\u061c Ltd", "", problemInvisible},
		{"zero-width space", company, "Ac\u200bme", "", problemInvisible},
		{"zero-width joiner", company, "Ac\u200dme", "", problemInvisible},
		{"word joiner", company, "Ac\u2060me", "", problemInvisible},
		{"byte order mark", company, "\ufeffAcme", "", problemInvisible},
		{"too short", company, "A", "", "must be 2 to 100 characters"},
		{"too short once trimmed", company, "  A  ", "", "must be 2 to 100 characters"},
		{"empty required", company, "   ", "", "is required"},
		{"over length", company, strings.Repeat("x", 101), "", "must be 2 to 100 characters"},
		{"3,015 characters", company, strings.Repeat("x", 3015), "", "must be 2 to 100 characters"},
		{"required one", town, "", "", "is required"},
		{"over length one", town, strings.Repeat("x", 61), "", "must be at most 60 characters"},
		{"optional empty", line2, "  ", "", ""},
		{"optional over length", line2, strings.Repeat("x", 101), "", "must be at most 100 characters"},
		{"note keeps LF", note, "Side door\nRing twice", "Side door\nRing twice", ""},
		{"note CRLF becomes LF", note, "Side door\r\nRing twice\rThanks", "Side door\nRing twice\nThanks", ""},
		{"note refuses TAB", note, "Side\tdoor", "", problemControlLines},
		{"note refuses NUL", note, "Side\x00door", "", problemControlLines},
		{"note refuses bidi", note, "Side door \u202Eevil", "", problemInvisible},
		{"note counts after CRLF", note, strings.Repeat("a\r\n", 150) + "a", "", "must be at most 300 characters"},
		{"note at max after CRLF", note, strings.Repeat("ab\r\n", 74) + "abcd", strings.Repeat("ab\n", 74) + "abcd", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.f.Clean(tc.in)
			if tc.problem == "" {
				if err != nil || got != tc.want {
					t.Fatalf("Clean(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Problem != tc.problem || e.Field != tc.f.Name || got != "" {
				t.Fatalf("Clean(%q) = %q, %v; want the problem %q", tc.in, got, err, tc.problem)
			}
			if want := tc.f.Label + ": " + tc.problem; err.Error() != want {
				t.Errorf("message %q, want %q", err.Error(), want)
			}
		})
	}
}

func TestCleanerKeepsEveryProblemAndCleansTheRest(t *testing.T) {
	company := Field{Name: "company", Label: "Company name", Min: 2, Max: 100}
	line1 := Field{Name: "line1", Label: "Address line 1", Min: 1, Max: 100}
	a, b := "  Caf\u0065\u0301  ", "1 High St\u202E"
	var c Cleaner
	c.Clean(company, &a)
	c.Clean(line1.Under("address."), &b)
	if a != "Caf\u00e9" || b != "1 High St\u202E" {
		t.Errorf("cleaned %q %q", a, b)
	}
	if len(c.Problems) != 1 || c.Problems["address.line1"] != "Address line 1 "+problemInvisible+"." {
		t.Errorf("problems %v", c.Problems)
	}
}
