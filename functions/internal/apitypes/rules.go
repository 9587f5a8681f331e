package apitypes

import (
	"reflect"
	"regexp"
	"strings"
	"time"
)

// UnixMillis is a moment as every answer and payload carries it: milliseconds since the
// Unix epoch, an integer (JavaScript's Date.now()). Its own type tells a time from money,
// which is a plain int64 of pence.
type UnixMillis int64

// UnixMillisOf is t in Unix ms.
func UnixMillisOf(t time.Time) UnixMillis { return UnixMillis(t.UnixMilli()) }

// specNames are the keys SPEC.md names in camelCase; they stay as the spec names them.
var specNames = map[string]bool{"payLoad": true, "optInMarketing": true}

// snakeCase is a JSON key of the wire contract: lower-case words joined by underscores.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// moneyWords are the words of a key that names an amount of money: such a field is an
// int64 of pence.
var moneyWords = []string{"price", "amount", "total", "charge", "discount", "spend", "minimum", "threshold", "cost", "vat", "pence", "balance", "outstanding", "allocated"}

// notMoney are keys with a money word that are not amounts (price_group names a price
// group); moneyNames are amounts without one (a trade account's credit limit and what it
// owes, a ledger's debit, credit, what is due and overdue, a product's recommended
// retail price, what a break would save).
var (
	notMoney = map[string]bool{"total": true, "vat_rate": true, "vat_rates": true, "discount_percent": true, "vat_number": true,
		"price_group": true}
	moneyNames = map[string]bool{"free_delivery_in": true, "credit_limit": true, "owed": true,
		"debit": true, "credit": true, "due": true, "overdue": true, "rrp": true, "saving": true}
	// countNames are money words that also count units: a payment's allocated pence (an
	// int64) and a forward line's allocated units (an int, docs/forward-orders.md).
	countNames = map[string]bool{"allocated": true}
)

var (
	timeType       = reflect.TypeFor[time.Time]()
	unixMillisType = reflect.TypeFor[UnixMillis]()
)

// WireProblems answers the breaches of the wire rules (docs/api.md "The wire contract") in
// the types given and every type they hold: a key that is not snake_case (the SPEC's
// names aside), a time.Time, a time that is not UnixMillis, an int64 whose key does not
// name an amount, money that is not an int64, a _pence key. Each names its path.
func WireProblems(types ...reflect.Type) []string {
	seen := map[reflect.Type]bool{}
	var problems []string
	for _, t := range types {
		problems = append(problems, wireProblems(t, t.Name(), seen)...)
	}
	return problems
}

// timeNames are the moments whose keys do not end in _at: when an app error was first
// and last seen (the Health page's error groups, named so by issue 34's contract).
var timeNames = map[string]bool{"first_seen": true, "last_seen": true}

// timeKey reports whether a key names a moment: placed_at, valid_from, valid_to.
func timeKey(key string) bool {
	return strings.HasSuffix(key, "_at") || key == "at" || strings.HasPrefix(key, "valid_") || timeNames[key]
}

func moneyKey(key string) bool {
	// A key that ends in its unit of goods counts goods, whatever else it says
	// (allocated_packs: the packs a delivery allocated).
	if notMoney[key] || strings.HasSuffix(key, "_packs") || strings.HasSuffix(key, "_units") {
		return false
	}
	if moneyNames[key] {
		return true
	}
	for _, w := range moneyWords {
		if strings.Contains(key, w) {
			return true
		}
	}
	return false
}

// wireProblems answers the breaches of the wire rules in typ and the types it holds,
// each named by its path from the answer type.
func wireProblems(typ reflect.Type, path string, seen map[reflect.Type]bool) []string {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array || typ.Kind() == reflect.Map {
		typ = typ.Elem()
	}
	if typ == timeType {
		return []string{path + " is a time.Time: send a time as UnixMillis (Unix ms)"}
	}
	if typ.Kind() != reflect.Struct || seen[typ] {
		return nil
	}
	seen[typ] = true
	var problems []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		key, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && key == "" {
			problems = append(problems, wireProblems(f.Type, path, seen)...)
			continue
		}
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		if key == "-" {
			continue
		}
		at := path + "." + f.Name
		if !hasTag || key == "" {
			problems = append(problems, at+" has no json tag: name its key in snake_case")
			continue
		}
		at = path + "." + key
		if !snakeCase.MatchString(key) && !specNames[key] {
			problems = append(problems, at+" is not snake_case")
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft == timeType:
			problems = append(problems, at+" is a time.Time: send a time as UnixMillis (Unix ms)")
		case ft == unixMillisType:
			if !timeKey(key) {
				problems = append(problems, at+" is a time: name it …_at (or valid_from, valid_to)")
			}
		case timeKey(key):
			problems = append(problems, at+" is a time: make it UnixMillis (Unix ms)")
		case strings.HasSuffix(key, "_pence"):
			problems = append(problems, at+" names its unit: money is always pence, so drop _pence")
		case ft.Kind() == reflect.Int64:
			// Every other int64 of an answer is an amount of money in pence (cmd/apitypes
			// calls it Pence), so its key must say it is money.
			if !moneyKey(key) {
				problems = append(problems, at+" is an int64, which an answer keeps for pence: name the amount (price, amount, total, …) or make it an int")
			}
		case countNames[key] && ft.Kind() == reflect.Int:
			// A count of units, not money.
		case moneyKey(key) && ft.Kind() != reflect.Struct && ft.Kind() != reflect.Slice && ft.Kind() != reflect.Map:
			problems = append(problems, at+" names money: make it an int64 of pence")
		default:
			problems = append(problems, wireProblems(f.Type, at, seen)...)
		}
	}
	return problems
}
