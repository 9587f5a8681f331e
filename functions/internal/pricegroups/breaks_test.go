package pricegroups

import (
	"reflect"
	"testing"

	"github.com/tradeshop/functions/internal/pricing"
)

func TestParseBreaks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want pricing.Ladder
		err  string
	}{
		{in: "", want: nil},
		{in: "  ", want: nil},
		{in: "6:0.90; 12:0.85", want: pricing.Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}},
		{in: "6:£0.9;12:0.85;", want: pricing.Ladder{{From: 6, Price: 90}, {From: 12, Price: 85}}},
		{in: "12:5%; 24:10%", want: pricing.Ladder{{From: 12, Percent: 5}, {From: 24, Percent: 10}}},
		{in: "12 : 5 %", want: pricing.Ladder{{From: 12, Percent: 5}}},
		{in: "2:1,250.00", want: pricing.Ladder{{From: 2, Price: 125000}}},
		{in: "1:0.90", err: `A break must start from 2 to 10000 packs (found "1:0.90").`},
		{in: "10001:0.90", err: `A break must start from 2 to 10000 packs (found "10001:0.90").`},
		{in: "6", err: `The breaks must be tiers of packs and a unit price or a percent off, such as "6:0.90; 12:0.85" or "12:5%" (found "6").`},
		{in: "6-0.90", err: `The breaks must be tiers of packs and a unit price or a percent off, such as "6:0.90; 12:0.85" or "12:5%" (found "6-0.90").`},
		{in: "6:0.901", err: `A break's unit price must be an amount in pounds ex VAT from 0.01 to 10,000.00, such as 0.90 (found "6:0.901").`},
		{in: "6:0", err: `A break's unit price must be an amount in pounds ex VAT from 0.01 to 10,000.00, such as 0.90 (found "6:0").`},
		{in: "6:10001", err: `A break's unit price must be an amount in pounds ex VAT from 0.01 to 10,000.00, such as 0.90 (found "6:10001").`},
		{in: "6:0%", err: `A break's percent off must be a whole number from 1 to 99 (found "6:0%").`},
		{in: "6:100%", err: `A break's percent off must be a whole number from 1 to 99 (found "6:100%").`},
		{in: "6:2.5%", err: `A break's percent off must be a whole number from 1 to 99 (found "6:2.5%").`},
		{in: "12:0.85; 6:0.90", err: `Breaks must be in rising order of packs, each once.`},
		{in: "6:0.90; 6:0.85", err: `Breaks must be in rising order of packs, each once.`},
		{in: "6:0.85; 12:0.85", err: `Each break's price must be lower than the one before it and than the list price.`},
		{in: "6:10%; 12:5%", err: `Each break's percent off must be higher than the one before it.`},
		{in: "6:0.90; 12:5%", err: `A table's breaks are all unit prices or all percents off.`},
		{in: "2:7;3:6;4:5;5:4;6:3;7:2;8:1", err: `The breaks hold 7 tiers; the most is 6.`},
		{in: "2:6;3:5;4:4;5:3;6:2;7:1", want: pricing.Ladder{{From: 2, Price: 600}, {From: 3, Price: 500}, {From: 4, Price: 400}, {From: 5, Price: 300}, {From: 6, Price: 200}, {From: 7, Price: 100}}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseBreaks(tc.in)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("ParseBreaks(%q) error %v, want %q", tc.in, err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseBreaks(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
}

// FormatBreaks writes what ParseBreaks reads back to the same table.
func TestFormatBreaksRoundTrips(t *testing.T) {
	t.Parallel()
	for _, l := range []pricing.Ladder{
		nil,
		{{From: 6, Price: 90}, {From: 12, Price: 85}},
		{{From: 12, Percent: 5}, {From: 24, Percent: 10}},
		{{From: 2, Price: 125000}},
	} {
		text := FormatBreaks(l)
		back, err := ParseBreaks(text)
		if err != nil || !reflect.DeepEqual(back, l) {
			t.Errorf("%v wrote %q, read back %v (%v)", l, text, back, err)
		}
	}
	if got := FormatBreaks(pricing.Ladder{{From: 6, Price: 90}, {From: 12, Percent: 5}}); got != "6:0.90; 12:5%" {
		t.Errorf("FormatBreaks = %q", got)
	}
}
