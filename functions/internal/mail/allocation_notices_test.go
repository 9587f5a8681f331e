package mail

import (
	"testing"

	"github.com/tradeshop/functions/internal/orders"
	"github.com/tradeshop/functions/internal/receiving"
)

// TestAllocatedNotice: the allocation email goes to the forward order's buyer under the
// id it is given, and says per line what ships now, what is backordered and what was
// cancelled, in packs.
func TestAllocatedNotice(t *testing.T) {
	t.Parallel()
	n := Notices{Shop: testShop(t)}
	fo := orders.Order{ID: "TS-100010", Email: "buyer@example.com"}
	m := n.Allocated(receiving.Allocation{ID: "TS-100050/allocation", ReceiptID: "RCV-000001", Forward: fo, ReleaseID: "TS-100050", Lines: []receiving.AllocatedLine{
		{SKU: "XM-1", Name: "Robin", PackSize: 6, Ordered: 60, Allocated: 36, Now: 36, Backordered: 24},
		{SKU: "XM-2", Name: "Holly", PackSize: 12, Ordered: 48, Allocated: 24, Now: 24, Cancelled: 24, CancelledNow: 24},
	}})
	if m.ID != "TS-100050/allocation" || m.To != fo.Email || m.ReplyTo != n.Shop.Contact.Email {
		t.Errorf("id %s to %s reply %s", m.ID, m.To, m.ReplyTo)
	}
	for _, body := range []string{m.Text, shown(m.HTML)} {
		has(t, "allocation", body, "order TS-100050", "Robin (XM-1): allocated 6 of 10 packs, 6 packs in this delivery; 4 packs backordered",
			"Holly (XM-2): allocated 2 of 4 packs, 2 packs in this delivery; 2 packs short, cancelled as you asked")
	}
	short := n.Allocated(receiving.Allocation{ID: "TS-100010/allocation/RCV-000001", Forward: fo, Lines: []receiving.AllocatedLine{
		{SKU: "XM-1", Name: "Robin", PackSize: 6, Ordered: 60, Backordered: 60},
	}})
	has(t, "nothing ships", short.Text, "too short to send you any", "allocated 0 of 10 packs; 10 packs backordered")
}
