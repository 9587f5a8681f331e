package apitypes

import (
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	Name string `json:"name"`
}

type card struct {
	SKU string `json:"sku"`
}

type answer struct {
	card
	Price    int64            `json:"unit_price"`
	Count    int              `json:"count"`
	Placed   UnixMillis       `json:"placed_at"`
	Paid     *UnixMillis      `json:"paid_at"`
	Note     string           `json:"note,omitempty"`
	Inner    *inner           `json:"inner,omitempty"`
	Many     []inner          `json:"many"`
	ByKey    map[string]int64 `json:"by_key"`
	Flag     bool             `json:"flag"`
	Anon     struct{ N int }  `json:"anon"`
	Kind     string           `json:"kind" ts:"'a' | 'b'"`
	Skipped  string           `json:"-"`
	internal string
}

// TestTypeScriptFollowsEncodingJSON checks each kind of field against what
// encoding/json would send.
func TestTypeScriptFollowsEncodingJSON(t *testing.T) {
	t.Parallel()
	got, err := TypeScript([]reflect.Type{reflect.TypeFor[answer]()})
	if err != nil {
		t.Fatal(err)
	}
	want := Header + `
export interface Answer {
  sku: string;
  unit_price: Pence;
  count: number;
  placed_at: UnixMillis;
  paid_at: UnixMillis | null;
  note?: string;
  inner?: Inner;
  many: Inner[];
  by_key: Record<string, Pence>;
  flag: boolean;
  anon: {
    N: number;
  };
  kind: 'a' | 'b';
}

export interface Inner {
  name: string;
}
`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	_ = answer{}.internal
}

// TestTypeScriptRefusesTwoTypesOfOneName: two packages' types of one name would
// overwrite each other in the file.
func TestTypeScriptRefusesTwoTypesOfOneName(t *testing.T) {
	t.Parallel()
	type Inner struct{}
	_, err := TypeScript([]reflect.Type{reflect.TypeFor[inner](), reflect.TypeFor[Inner]()})
	if err == nil || !strings.Contains(err.Error(), "would both be Inner") {
		t.Fatalf("err %v, want two types named Inner refused", err)
	}
}
