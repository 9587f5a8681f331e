package apitypes

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestWireRulesCatchBreaches shows the walk refusing each kind of breach.
func TestWireRulesCatchBreaches(t *testing.T) {
	t.Parallel()
	type camel struct {
		PackSize int `json:"packSize"`
	}
	type clock struct {
		At time.Time `json:"at"`
	}
	type seconds struct {
		PlacedAt int64 `json:"placed_at"`
	}
	type suffixed struct {
		AmountPence int64 `json:"amount_pence"`
	}
	type smallMoney struct {
		UnitPrice int `json:"unit_price"`
	}
	type textTime struct {
		ValidTo string `json:"valid_to"`
	}
	type nested struct {
		Inner []camel `json:"inner"`
	}
	type untagged struct {
		Name string
	}
	type count struct {
		Version int64 `json:"version"`
	}
	type allocatedText struct {
		Allocated string `json:"allocated"`
	}
	type fine struct {
		UnitPrice int64 `json:"unit_price"`
		Allocated int   `json:"allocated"` // units of a forward line
		Paid      struct {
			Allocated int64 `json:"allocated"` // pence of a payment
		} `json:"paid"`
		PlacedAt UnixMillis  `json:"placed_at"`
		PaidAt   *UnixMillis `json:"paid_at"`
		Percent  int         `json:"discount_percent"`
		PayLoad  string      `json:"payLoad"`
		Skipped  string      `json:"-"`
	}
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"camel case", camel{}, "not snake_case"},
		{"time.Time", clock{}, "time.Time"},
		{"a time as a plain int64", seconds{}, "a time"},
		{"money with a unit suffix", suffixed{}, "_pence"},
		{"money not int64", smallMoney{}, "int64 of pence"},
		{"a time as text", textTime{}, "a time"},
		{"a breach in a nested type", nested{}, "packSize"},
		{"a field without a json tag", untagged{}, "no json tag"},
		{"an int64 that is not money", count{}, "keeps for pence"},
		{"allocated neither pence nor units", allocatedText{}, "int64 of pence"},
		{"every rule kept", fine{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			problems := WireProblems(reflect.TypeOf(c.v))
			if c.want == "" {
				if len(problems) > 0 {
					t.Fatalf("problems %q, want none", problems)
				}
				return
			}
			if len(problems) != 1 || !strings.Contains(problems[0], c.want) {
				t.Fatalf("problems %q, want one containing %q", problems, c.want)
			}
		})
	}
}
