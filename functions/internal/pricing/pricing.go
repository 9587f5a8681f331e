package pricing

import (
	"fmt"
	"sort"
	"time"
)

// MaxLineUnits is the most units one basket line may hold.
const MaxLineUnits = 10_000

// Line is a basket line to price: a quantity in units of a product.
type Line struct {
	SKU          string
	Quantity     int
	UnitPrice    int64 // list price of one unit, pence ex VAT
	VATRate      int   // whole percent
	RangeURLText string
	CategoryID   int
	PackSize     int    // units in a pack (0 is read as 1)
	Breaks       Ladder // the product's own public quantity breaks
	RRP          int64  // recommended retail price of one unit, pence inc VAT; 0 for none
}

// packs is how many packs the line holds.
func (l Line) packs() int { return l.Quantity / l.packSize() }

func (l Line) packSize() int { return max(l.PackSize, 1) }

// PricedLine is a line with how it was priced, its net amount and VAT
// (docs/pricing.md "The rule").
type PricedLine struct {
	Line
	BasePrice       int64  // step 1: the group's price for the product, else the list price
	BreakFrom       int    // step 2: the break reached, in packs; 0 for none
	BreakPrice      int64  // step 2's price: BasePrice with the break reached, if any
	DiscountPercent int    // step 3: the discount taken off BreakPrice
	NetUnitPrice    int64  // the unit price charged: BreakPrice less DiscountPercent of it, rounded half up
	NetAmount       int64  // Quantity × NetUnitPrice: the line_amount shown
	Group           string // the price group's id when any of its rules priced the line
	GroupName       string
	Nudge           *Nudge  // the next break, when the line is just under it
	Margin          *Margin // the margin at RRP of NetUnitPrice; nil without an RRP
	CouponShare     int64   // this line's share of the coupon discount
	VAT             int64   // (NetAmount − CouponShare) × VATRate, rounded
}

// Nudge is the next quantity break of a line: how many more packs reach it, the unit
// price there and what the whole line would save at that quantity against its unit
// price now.
type Nudge struct {
	AddPacks  int
	UnitPrice int64
	Saving    int64
}

// Coupon is a discount code: percent or a fixed amount off goods, with a minimum spend,
// a validity window, an overall usage limit and a limit per account (0 for none).
type Coupon struct {
	ID              string
	Kind            string // "percent" or "fixed"
	Percent         int
	AmountPence     int64
	MinSpendPence   int64
	ValidFrom       time.Time
	ValidTo         time.Time
	UsageLimit      int // orders that may carry it in all, 0 for no limit
	Used            int // orders that carry it
	PerAccountLimit int // orders one account may place with it, 0 for no limit
	AccountUses     int // orders this account has placed with it
}

// UsableAgain says whether, after one more order with it, the coupon could still go on
// another of this account's orders: a coupon that could not is cleared from the account
// when the order is placed.
func (c Coupon) UsableAgain() bool {
	return (c.UsageLimit == 0 || c.Used+1 < c.UsageLimit) && (c.PerAccountLimit == 0 || c.AccountUses+1 < c.PerAccountLimit)
}

// Totals is a priced basket.
type Totals struct {
	Lines          []PricedLine
	GoodsExVAT     int64 // sum of line net amounts
	CouponDiscount int64
	NetExVAT       int64 // goods less coupon
	VAT            int64
	TotalIncVAT    int64
	CouponError    error // why a held coupon did not apply, if it did not
}

// Refusal is a pricing rule refusing what the buyer asked for. Its text is a whole
// sentence for the buyer, sent as it is (docs/api.md "Errors"), so it is written as one
// rather than as a Go error string.
type Refusal string

func (r Refusal) Error() string { return string(r) }

// QuantityError is a quantity CheckQuantity refuses: Kind is one of the ErrQuantity
// refusals (errors.Is finds it), Msg the sentence with the figures of this line.
type QuantityError struct {
	Kind error
	Msg  string
}

func (e *QuantityError) Error() string { return e.Msg }
func (e *QuantityError) Unwrap() error { return e.Kind }

// Coupon problems; each says what the buyer can do.
var (
	ErrCouponNotStarted error = Refusal("This coupon is not valid yet.")
	ErrCouponExpired    error = Refusal("This coupon has expired.")
	ErrCouponUsedUp     error = Refusal("This coupon has been used as many times as it allows.")
	ErrCouponUsedByYou  error = Refusal("You have used this coupon as many times as it allows.")
	ErrCouponMinimum    error = Refusal("Your basket is below this coupon's minimum spend.")
	ErrQuantityNotPacks error = Refusal("The quantity must be a whole number of packs.")
	ErrQuantityTooSmall error = Refusal("The quantity must be at least one pack.")
	ErrQuantityTooLarge error = Refusal("The quantity is more than one line may hold.")
)

// RoundPercent is amount × percent / 100, rounded half up to a whole penny.
func RoundPercent(amount int64, percent int) int64 {
	return (amount*int64(percent) + 50) / 100
}

// CheckQuantity says whether a quantity in units is a positive whole number of packs
// within the line maximum.
func CheckQuantity(quantity, packSize int) error {
	switch {
	case quantity < packSize || quantity <= 0:
		return ErrQuantityTooSmall
	case packSize <= 0 || quantity%packSize != 0:
		return &QuantityError{Kind: ErrQuantityNotPacks, Msg: fmt.Sprintf("The quantity must be a whole number of packs of %d.", packSize)}
	case quantity > MaxLineUnits:
		return &QuantityError{Kind: ErrQuantityTooLarge, Msg: fmt.Sprintf("The quantity is more than one line may hold (%d units).", MaxLineUnits)}
	}
	return nil
}

// PriceOne prices one line for a buyer with terms, without a coupon: the steps of
// docs/pricing.md "The rule", the break nudge and the margin.
func PriceOne(l Line, terms Terms) PricedLine {
	pl := priceAt(l, terms, l.packs())
	if ld, _ := terms.ladder(l); ld != nil {
		pl.Nudge = nudge(l, terms, ld, pl.NetUnitPrice)
	}
	return pl
}

// priceAt prices l as if it held packs packs (its Quantity is kept): steps 1 to 3 and
// the margin, no nudge.
func priceAt(l Line, terms Terms, packs int) PricedLine {
	base, groupBase := terms.base(l)
	price := base
	pl := PricedLine{Line: l, BasePrice: base}
	ld, groupLadder := terms.ladder(l)
	groupBreak := false
	if tr := ld.reached(packs); tr != nil {
		price, pl.BreakFrom, groupBreak = tr.at(base), tr.From, groupLadder
	}
	pl.BreakPrice = price
	pct, groupDiscount := terms.discount(l)
	pl.DiscountPercent = pct
	pl.NetUnitPrice = price - RoundPercent(price, pct)
	pl.NetAmount = int64(l.Quantity) * pl.NetUnitPrice
	if terms.Group != nil && (groupBase || groupBreak || (groupDiscount && pct > 0)) {
		pl.Group, pl.GroupName = terms.Group.ID, terms.Group.Name
	}
	if l.RRP > 0 {
		m := MarginAt(l.RRP, pl.NetUnitPrice, l.VATRate)
		pl.Margin = &m
	}
	return pl
}

// nudge is the next break of ld above the line's packs when the line holds at least
// half of that break's packs, the break is cheaper after discounts and the line may
// grow to it; nil otherwise.
func nudge(l Line, terms Terms, ld Ladder, unit int64) *Nudge {
	packs := l.packs()
	for _, tr := range ld {
		if tr.From <= packs {
			continue
		}
		units := tr.From * l.packSize()
		if 2*packs < tr.From || units > MaxLineUnits {
			return nil
		}
		next := priceAt(l, terms, tr.From).NetUnitPrice
		if next >= unit {
			return nil
		}
		return &Nudge{AddPacks: tr.From - packs, UnitPrice: next, Saving: int64(units) * (unit - next)}
	}
	return nil
}

// CheckCoupon says whether coupon c applies to goods worth goodsExVAT at time now.
func CheckCoupon(c Coupon, goodsExVAT int64, now time.Time) error {
	switch {
	case !c.ValidFrom.IsZero() && now.Before(c.ValidFrom):
		return ErrCouponNotStarted
	case !c.ValidTo.IsZero() && !now.Before(c.ValidTo):
		return ErrCouponExpired
	case c.UsageLimit > 0 && c.Used >= c.UsageLimit:
		return ErrCouponUsedUp
	case c.PerAccountLimit > 0 && c.AccountUses >= c.PerAccountLimit:
		return ErrCouponUsedByYou
	case goodsExVAT < c.MinSpendPence:
		return ErrCouponMinimum
	}
	return nil
}

// couponDiscount is what coupon c takes off goods: never more than the goods.
func couponDiscount(c Coupon, goods int64) int64 {
	var d int64
	switch c.Kind {
	case "percent":
		d = RoundPercent(goods, c.Percent)
	case "fixed":
		d = c.AmountPence
	}
	return min(max(d, 0), goods)
}

// Price works out every line and the totals for a buyer with terms. coupon may be nil;
// one that does not apply is reported in CouponError and takes nothing off.
func Price(lines []Line, terms Terms, coupon *Coupon, now time.Time) Totals {
	t := Totals{Lines: make([]PricedLine, len(lines))}
	for i, l := range lines {
		t.Lines[i] = PriceOne(l, terms)
		t.GoodsExVAT += t.Lines[i].NetAmount
	}
	if coupon != nil {
		if err := CheckCoupon(*coupon, t.GoodsExVAT, now); err != nil {
			t.CouponError = err
		} else {
			t.CouponDiscount = couponDiscount(*coupon, t.GoodsExVAT)
			shareCoupon(t.Lines, t.CouponDiscount)
		}
	}
	for i := range t.Lines {
		l := &t.Lines[i]
		l.VAT = RoundPercent(l.NetAmount-l.CouponShare, l.VATRate)
		t.VAT += l.VAT
	}
	t.NetExVAT = t.GoodsExVAT - t.CouponDiscount
	t.TotalIncVAT = t.NetExVAT + t.VAT
	return t
}

// shareCoupon gives each line its share of discount (ShareCoupon of their net amounts).
func shareCoupon(lines []PricedLine, discount int64) {
	amounts := make([]int64, len(lines))
	for i, l := range lines {
		amounts[i] = l.NetAmount
	}
	for i, share := range ShareCoupon(amounts, discount) {
		lines[i].CouponShare = share
	}
}

// ShareCoupon splits discount across amounts in proportion to each; the pennies left by
// rounding down go to the largest remainders (the first of equal ones), so the shares add
// up to discount exactly. An order's lines keep their amounts, so the VAT invoice works
// out each line's share again from them: the same amounts give the same shares.
func ShareCoupon(amounts []int64, discount int64) []int64 {
	shares := make([]int64, len(amounts))
	var total int64
	for _, a := range amounts {
		total += a
	}
	if discount == 0 || total == 0 {
		return shares
	}
	type rem struct {
		i int
		r int64
	}
	rems := make([]rem, len(amounts))
	var given int64
	for i, a := range amounts {
		exact := discount * a
		shares[i] = exact / total
		given += shares[i]
		rems[i] = rem{i, exact % total}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for k := 0; given < discount; k++ {
		shares[rems[k%len(rems)].i]++
		given++
	}
	return shares
}
