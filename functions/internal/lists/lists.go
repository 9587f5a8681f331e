// Package lists holds the rules of a buyer's saved lists ("Christmas counter", "weekly
// cards"): named lines of SKUs and quantities, bounded in number and size, that belong to
// one account. It imports no HTTP or AWS code; the store keeps them under the account's
// own key, so no account can reach another's (docs/quick-order.md).
package lists

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/tradeshop/functions/internal/text"
)

// Bounds of the lists of one account.
const (
	// MaxLines is the most lines a list holds: a basket's most, so any basket can be saved.
	MaxLines = 500
	// MaxPerAccount is the most lists an account keeps.
	MaxPerAccount = 50
	// MaxQuantity is the most units of a line (a basket line's most).
	MaxQuantity = 10_000
)

// Name is a list's name under the one text rule.
var Name = text.Field{Name: "name", Label: "List name", Min: 1, Max: 60}

// Line is one line of a list: Quantity units of SKU.
type Line struct {
	SKU      string `dynamodbav:"sku" json:"sku"`
	Quantity int    `dynamodbav:"q" json:"quantity"`
}

// List is a saved list. Version moves on with every change, so a change made on the list
// as read cannot undo another made meanwhile.
type List struct {
	ID        string
	Name      string
	Lines     []Line
	CreatedAt time.Time
	UpdatedAt time.Time
	Version   int64
}

// Summary is a list as the index of lists shows it.
type Summary struct {
	ID        string
	Name      string
	Lines     int
	UpdatedAt time.Time
}

// idAlphabet is the letters of a list id: lowercase, no look-alikes.
const idAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

var validID = regexp.MustCompile(`^[a-hjkmnp-z2-9]{12}$`)

// NewID answers a new random list id (12 letters and digits).
func NewID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

// ValidID says id has the form of a list id; anything else is never looked up.
func ValidID(id string) bool { return validID.MatchString(id) }

// TooLongError refuses a change that would take a list past MaxLines.
type TooLongError struct{}

func (TooLongError) Error() string {
	return fmt.Sprintf("A list holds at most %d lines: remove some, or start another list.", MaxLines)
}

// Add adds lines to the list: more of a line it holds (up to MaxQuantity), or a new line
// at the end.
func (l *List) Add(lines []Line) error {
	next := slices.Clone(l.Lines)
	for _, in := range lines {
		i := slices.IndexFunc(next, func(x Line) bool { return x.SKU == in.SKU })
		if i < 0 {
			next = append(next, in)
			continue
		}
		next[i].Quantity = min(next[i].Quantity+in.Quantity, MaxQuantity)
	}
	if len(next) > MaxLines {
		return TooLongError{}
	}
	l.Lines = next
	return nil
}

// Set sets lines' quantities (a new line at the end); 0 removes a line.
func (l *List) Set(lines []Line) error {
	next := slices.Clone(l.Lines)
	for _, in := range lines {
		i := slices.IndexFunc(next, func(x Line) bool { return x.SKU == in.SKU })
		switch {
		case i < 0 && in.Quantity > 0:
			next = append(next, in)
		case i >= 0 && in.Quantity > 0:
			next[i].Quantity = in.Quantity
		case i >= 0:
			next = slices.Delete(next, i, i+1)
		}
	}
	if len(next) > MaxLines {
		return TooLongError{}
	}
	l.Lines = next
	return nil
}
