// Package pdftext reads the text of a PDF back with a PDF text extractor
// (ledongthuc/pdf), for tests that check what a generated PDF says.
package pdftext

import (
	"bytes"
	"fmt"

	"github.com/ledongthuc/pdf"
)

// Of answers doc's text, page after page.
func Of(doc []byte) (string, error) {
	r, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		return "", fmt.Errorf("read PDF: %w", err)
	}
	plain, err := r.GetPlainText()
	if err != nil {
		return "", fmt.Errorf("extract text: %w", err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(plain); err != nil {
		return "", err
	}
	return out.String(), nil
}
