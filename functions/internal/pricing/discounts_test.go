package pricing

import (
	"reflect"
	"testing"
)

func TestMergeDiscounts(t *testing.T) {
	t.Parallel()
	defaults := map[string]int{"range:wholesale-christmas": 5, "category:120": 0}
	for _, tc := range []struct {
		name    string
		dsc     string
		want    map[string]int
		wantErr bool
	}{
		{"no account discounts", "", map[string]int{"range:wholesale-christmas": 5, "category:120": 0}, false},
		{"account wins on the same key", `{"range:wholesale-christmas":10}`, map[string]int{"range:wholesale-christmas": 10, "category:120": 0}, false},
		{"account adds keys", `{"product:GC101-00001":15}`, map[string]int{"range:wholesale-christmas": 5, "category:120": 0, "product:GC101-00001": 15}, false},
		{"not JSON", `{`, nil, true},
		{"bad key", `{"everything":50}`, nil, true},
		{"over 100%", `{"category:101":150}`, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := MergeDiscounts(defaults, tc.dsc)
			if (err != nil) != tc.wantErr || (!tc.wantErr && !reflect.DeepEqual(got, tc.want)) {
				t.Fatalf("got %v %v", got, err)
			}
		})
	}
	if defaults["range:wholesale-christmas"] != 5 {
		t.Fatal("merge changed the defaults")
	}
}
