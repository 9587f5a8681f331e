package seed

import (
	"fmt"
	"hash/fnv"
	"html"
	"strings"

	"github.com/tradeshop/functions/internal/catalogue"
)

var palettes = [][3]string{
	{"#f4e1d2", "#c0392b", "#2c3e50"},
	{"#e3f2fd", "#1565c0", "#0d2a4a"},
	{"#e8f5e9", "#2e7d32", "#1b3a1e"},
	{"#fff3e0", "#ef6c00", "#4e2600"},
	{"#f3e5f5", "#8e24aa", "#3a0d45"},
	{"#fffde7", "#b8860b", "#3d2f00"},
	{"#fce4ec", "#d81b60", "#4a0a22"},
	{"#e0f7fa", "#00838f", "#00363a"},
}

// ImageSizes are the pixel sizes of the small and large product images.
var ImageSizes = struct{ Small, Large int }{160, 640}

// ProductSVG draws a product's image at size×size pixels: a card in the product's
// palette with its initials, so every product has a distinct, deterministic picture.
func ProductSVG(p catalogue.Product, size int) []byte {
	h := fnv.New32a()
	h.Write([]byte(p.SKU))
	sum := h.Sum32()
	pal := palettes[sum%uint32(len(palettes))]
	var dots strings.Builder
	for i := range 7 {
		v := (sum >> (i * 4)) & 0xff
		fmt.Fprintf(&dots, `<circle cx="%d" cy="%d" r="%d" fill="%s" opacity=".35"/>`,
			20+int(v*7)%120, 20+int(v*13)%120, 4+int(v)%10, pal[1])
	}
	return []byte(fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 160 160" role="img" aria-label="%s">`+
		`<rect width="160" height="160" fill="%s"/>`+
		`<rect x="28" y="14" width="104" height="132" rx="4" fill="#fff" stroke="%s" stroke-width="3"/>`+
		`%s<text x="80" y="92" font-family="Georgia,serif" font-size="34" text-anchor="middle" fill="%s">%s</text>`+
		`</svg>`,
		size, size, html.EscapeString(p.Name), pal[0], pal[1], dots.String(), pal[2], html.EscapeString(initials(p.Name))))
}

func initials(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		if c := w[0]; c >= 'A' && c <= 'Z' {
			b.WriteByte(c)
			if b.Len() == 2 {
				break
			}
		}
	}
	return b.String()
}
