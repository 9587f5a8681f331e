package mail

import (
	"fmt"
	"strings"

	"github.com/tradeshop/functions/internal/catalogue"
	"github.com/tradeshop/functions/internal/outbox"
	"github.com/tradeshop/functions/internal/reminders"
)

var _ reminders.Notifier = Notices{}

// PreOrderReminder is the buyer's reminder that the pre-orders of the forward products
// in their basket close on r.OrderBy: one paragraph per line, and the basket's link.
func (n Notices) PreOrderReminder(r reminders.Reminder) outbox.Message {
	by := catalogue.LongDate(r.OrderBy)
	subject := oneLine(fmt.Sprintf("Pre-orders close on %s: your basket holds %s", by, plural(len(r.Lines), "pre-order line")))
	var paras []string
	for _, l := range r.Lines {
		paras = append(paras, fmt.Sprintf("Pre-orders for %s close on %s: your basket holds %s — place your order by then.",
			oneLine(l.Name), by, plural(l.Packs, "pack")))
	}
	basket := "your basket on our website"
	if n.SiteURL != "" {
		basket = "your basket: " + n.SiteURL + "/checkout/basket/"
	}
	paras = append(paras, "Forward lines are delivered from their delivery date and invoiced when the goods are allocated to you. To order, check out "+basket+".")
	if strings.TrimSpace(n.Shop.Contact.Email) != "" {
		paras = append(paras, fmt.Sprintf("Questions to %s or %s.", n.Shop.Contact.Email, n.Shop.Contact.Phone))
	}
	return n.plain(reminders.EmailID(r.UID, r.OrderBy), r.Email, n.Shop.Contact.Email, subject, paras)
}

// plural is n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
