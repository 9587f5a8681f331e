package api

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/testenv"
)

// Staff make a price group, import a file with a bad row (refused by line, nothing
// written), fix and apply it, export it, and put an account in it; a group that is not
// is refused by field.
func TestPriceGroupsInTheBackOffice(t *testing.T) {
	t.Parallel()
	s := newRaceShop(t)
	staff := testenv.Staff(t, testenv.NewUser(t))
	p := s.product(100, 6, 100) // £1.00 a unit, packs of 6
	tok := fmt.Sprintf("%q", staff.IDToken)

	code, body := s.c.post("/api/admin/price-groups", `{"token":`+tok+`,"id":"independents","name":"Independents","version":0}`, nil)
	if code != 201 || body["group"].(map[string]any)["version"] != float64(1) {
		t.Fatalf("create: %d %v", code, body)
	}
	if code, body := s.c.post("/api/admin/price-groups", `{"token":`+tok+`,"id":"independents","name":"Again","version":0}`, nil); code != 409 {
		t.Fatalf("create of a taken id: %d %v", code, body)
	}
	if code, body := s.c.post("/api/admin/price-groups", `{"token":`+tok+`,"id":"Garden Centres","name":"","version":0}`, nil); code != 400 ||
		body["problems"].(map[string]any)["id"] == nil || body["problems"].(map[string]any)["name"] == nil {
		t.Fatalf("a bad id and name: %d %v", code, body)
	}

	file := func(rows, apply string, version int) string {
		return fmt.Sprintf(`{"token":%s,"csv":{"name":"independents.csv","text":%q},"apply":%s,"version":%d}`, tok,
			"applies_to,code,price,discount_percent,breaks\n"+rows, apply, version)
	}
	code, body = s.c.post("/api/admin/price-groups/independents/import", file("product,"+p.SKU+",0.80,,6:0.75\nproduct,NOPE-1,,5,\n", "true", 1), nil)
	problems, _ := body["problems"].([]any)
	if code != 200 || body["applied"] != false || len(problems) != 1 || problems[0].(map[string]any)["line"] != float64(3) {
		t.Fatalf("a bad row: %d %v", code, body)
	}
	code, body = s.c.post("/api/admin/price-groups/independents/import", file("product,"+p.SKU+",0.80,,6:0.75\n", "false", 1), nil)
	if code != 200 || body["applied"] != false || body["added"] != float64(1) || body["rows"] != float64(1) {
		t.Fatalf("review: %d %v", code, body)
	}
	code, body = s.c.post("/api/admin/price-groups/independents/import", file("product,"+p.SKU+",0.80,,6:0.75\n", "true", 1), nil)
	if code != 200 || body["applied"] != true || body["group"].(map[string]any)["version"] != float64(2) {
		t.Fatalf("apply: %d %v", code, body)
	}
	if code, body := s.c.post("/api/admin/price-groups/independents/import", file("product,"+p.SKU+",0.70,,\n", "true", 1), nil); code != 409 {
		t.Fatalf("apply on the old version: %d %v", code, body)
	}
	if code, body := s.c.post("/api/admin/price-groups/nope/import", file("", "false", 0), nil); code != 404 {
		t.Fatalf("import to a group that is not: %d %v", code, body)
	}
	code, _, raw := s.c.get("/api/admin/price-groups/independents/export", staff.IDToken)
	if code != 200 || string(raw) != "applies_to,code,price,discount_percent,breaks\nproduct,"+p.SKU+",0.80,,6:0.75\n" {
		t.Fatalf("export: %d %s", code, raw)
	}
	code, list, _ := s.c.get("/api/admin/price-groups", staff.IDToken)
	groups, _ := list["groups"].([]any)
	if code != 200 || len(groups) != 1 || groups[0].(map[string]any)["rows"] != float64(1) {
		t.Fatalf("list: %d %v", code, list)
	}

	buyer, v := accountBuyer(t, s, staff, "Group Cards Ltd")
	code, body = s.c.post("/api/admin/accounts/"+buyer.UID, fmt.Sprintf(`{"token":%s,"version":%d,"approved_for_credit":false,"dsc":"","price_group":"garden-centres"}`, tok, v), nil)
	if code != 400 || !strings.Contains(fmt.Sprint(body["problems"]), "There is no price group") {
		t.Fatalf("a group that is not: %d %v", code, body)
	}
	code, body = s.c.post("/api/admin/accounts/"+buyer.UID, fmt.Sprintf(`{"token":%s,"version":%d,"approved_for_credit":false,"dsc":"","price_group":"independents"}`, tok, v), nil)
	if code != 200 || body["account"].(map[string]any)["price_group"] != "independents" {
		t.Fatalf("into the group: %d %v", code, body)
	}
	audit := body["audit"].([]any)[0].(map[string]any)
	if !strings.Contains(fmt.Sprint(audit), "independents") {
		t.Fatalf("audit entry %v", audit)
	}
}
