package mail

import (
	"fmt"

	"github.com/tradeshop/functions/internal/basket"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/receiving"
)

var _ receiving.Notifier = Notices{}

// Allocated is the buyer's email when a delivery is allocated to their forward order
// (docs/forward-orders.md "Receiving and allocation"): per line what ships now (on the
// release order, invoiced), what is still backordered and what was cancelled because
// they chose no backorders.
func (n Notices) Allocated(a receiving.Allocation) outbox.Message {
	fo := a.Forward
	subject := oneLine(fmt.Sprintf("Your forward order %s: delivery allocated", fo.ID))
	if a.ReleaseID != "" {
		subject = oneLine(fmt.Sprintf("Your forward order %s: goods on their way as order %s", fo.ID, a.ReleaseID))
	}
	var paras []string
	if a.ReleaseID != "" {
		paras = append(paras, fmt.Sprintf("A delivery of goods you pre-ordered has arrived. What we can send now is on order %s, which we will invoice and dispatch as usual.", a.ReleaseID))
	} else {
		paras = append(paras, fmt.Sprintf("A delivery of goods you pre-ordered on forward order %s has arrived, but it was too short to send you any of them this time.", fo.ID))
	}
	for _, l := range a.Lines {
		pack := max(l.PackSize, 1)
		line := fmt.Sprintf("%s (%s): allocated %d of %d packs", l.Name, l.SKU, l.Allocated/pack, l.Ordered/pack)
		if l.Now > 0 {
			line += fmt.Sprintf(", %s in this delivery", basket.Plural(l.Now/pack, "pack"))
		}
		switch {
		case l.CancelledNow > 0:
			line += fmt.Sprintf("; %s short, cancelled as you asked (no backorders).", basket.Plural(l.CancelledNow/pack, "pack"))
		case l.Backordered > 0:
			line += fmt.Sprintf("; %s backordered, sent from a later delivery.", basket.Plural(l.Backordered/pack, "pack"))
		default:
			line += "."
		}
		paras = append(paras, line)
	}
	paras = append(paras, fmt.Sprintf("Your dashboard shows your forward orders line by line. Questions to %s or %s.", n.Shop.Contact.Email, n.Shop.Contact.Phone))
	return n.plain(a.ID, fo.Email, n.Shop.Contact.Email, subject, paras)
}
