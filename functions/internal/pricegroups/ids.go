package pricegroups

import (
	"regexp"
	"strings"

	"github.com/tradeshop/functions/internal/text"
)

// idShape is a group's id: lower-case letters, digits and hyphens, 1 to 40, as it shows
// in the address of its page and in the account item's pg attribute.
var idShape = regexp.MustCompile(`^[a-z0-9-]{1,40}$`)

// ValidID reports whether id has a group id's shape: "independents".
func ValidID(id string) bool { return idShape.MatchString(id) }

// NameField is a group's name: one line of 1 to 60 characters under the shop's text rule.
var NameField = text.Field{Name: "name", Label: "Name", Min: 1, Max: 60}

// IDProblem is what is wrong with id as a group's id ("" when nothing is).
func IDProblem(id string) string {
	if ValidID(id) {
		return ""
	}
	return "The id must be 1 to 40 lower-case letters, digits and hyphens, such as independents."
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
