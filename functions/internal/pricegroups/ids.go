package pricegroups

import (
	"strings"

	"github.com/tradeshop/functions/internal/pricing"
	"github.com/tradeshop/functions/internal/text"
)

// ValidID reports whether id has a group id's shape (pricing.ValidGroupID): lower-case
// letters, digits and hyphens, 1 to 40, starting and ending with a letter or digit, as
// it shows in the address of its page and in the account item's pg attribute.
func ValidID(id string) bool { return pricing.ValidGroupID(id) }

// NameField is a group's name: one line of 1 to 60 characters under the shop's text rule.
var NameField = text.Field{Name: "name", Label: "Name", Min: 1, Max: 60}

// IDProblem is what is wrong with id as a group's id ("" when nothing is).
func IDProblem(id string) string {
	if ValidID(id) {
		return ""
	}
	return "The id must be 1 to 40 lower-case letters, digits and hyphens, starting and ending with a letter or digit, such as garden-centres."
}

// CleanName answers name as stored (trimmed, NFC) or a sentence saying what is wrong.
func CleanName(name string) (string, string) {
	clean, err := NameField.Clean(strings.TrimSpace(name))
	if refused, ok := err.(*text.Error); ok {
		return "", refused.Sentence()
	}
	if err != nil {
		return "", err.Error()
	}
	return clean, ""
}
