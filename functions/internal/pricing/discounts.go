package pricing

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// discountKey is "range:{urlText}", "category:{id}" or "product:{sku}".
var discountKey = regexp.MustCompile(`^(range:[a-z0-9_-]+|category:\d+|product:[A-Z0-9-]+)$`)

// MergeDiscounts lays an account's discounts (dsc, a JSON object of key to percent, ""
// for none) over the public defaults; the account's value wins for a key both have.
func MergeDiscounts(defaults map[string]int, dsc string) (map[string]int, error) {
	own, err := parseOwn(dsc)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(defaults)+len(own))
	for k, v := range defaults {
		out[k] = v
	}
	for k, v := range own {
		out[k] = v
	}
	return out, nil
}

// parseOwn reads an account's dsc: nil for "", else its keys and whole percentages,
// each checked.
func parseOwn(dsc string) (map[string]int, error) {
	if dsc == "" {
		return nil, nil
	}
	var own map[string]int
	if err := json.Unmarshal([]byte(dsc), &own); err != nil {
		return nil, fmt.Errorf("account discounts are not a JSON object of whole percentages: %w", err)
	}
	for k, v := range own {
		if !discountKey.MatchString(k) || v < 0 || v > 100 {
			return nil, fmt.Errorf("account discount %q: %d%% is not allowed", k, v)
		}
	}
	return own, nil
}
