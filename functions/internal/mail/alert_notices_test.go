package mail

import (
	"strings"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/alerts"
	"github.com/tradeshop/functions/internal/catalogue"
)

// TestBackInStockEmail: the alert's email goes to the buyer under the alert's own outbox
// id, says "Back in stock" with the product's name as it is now, links the product page
// on the site's address, says the alert is removed, renders from its templates (not the
// short fallback) and escapes a name in the HTML.
func TestBackInStockEmail(t *testing.T) {
	t.Parallel()
	at := time.UnixMilli(1_790_000_000_123).UTC()
	cases := []struct {
		name    string
		siteURL string
		product catalogue.Product
		url     string
	}{
		{"on the site's address", "https://shop.example", catalogue.Product{SKU: "GC101-00001", Slug: "robin-cards", Name: "Robin cards"},
			"https://shop.example/robin-cards/"},
		{"with no site address, the path", "", catalogue.Product{SKU: "GC101-00002", Slug: "owl-tags", Name: "Owl <tags> & bows"},
			"/owl-tags/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			n := Notices{Shop: testShop(t), SiteURL: c.siteURL}
			a := alerts.Alert{SKU: c.product.SKU, UID: "buyer-1", Email: " buyer@example.com ", Name: "Old name", Path: "/old/", CreatedAt: at}
			m := n.BackInStock(a, c.product)
			if want := "alert/" + c.product.SKU + "/buyer-1/1790000000123"; m.ID != want {
				t.Errorf("id %q, want %q", m.ID, want)
			}
			if m.To != "buyer@example.com" || m.Subject != "Back in stock: "+c.product.Name {
				t.Errorf("to %q subject %q", m.To, m.Subject)
			}
			for _, body := range []string{flat(m.Text), shown(m.HTML)} {
				has(t, c.name, body, c.product.Name, c.product.SKU, "is back in stock", "the alert is now removed", n.Shop.Business.TradingName)
				if strings.Contains(body, "Old name") {
					t.Errorf("the email names the product as it was when asked: %s", body)
				}
			}
			if !strings.Contains(m.Text, c.url) || !strings.Contains(m.HTML, `href="`+c.url+`"`) {
				t.Errorf("the email lacks the link %s:\n%s\n%s", c.url, m.Text, m.HTML)
			}
			if strings.Contains(m.HTML, "<tags>") {
				t.Errorf("the HTML does not escape the name: %s", m.HTML)
			}
		})
	}
}
