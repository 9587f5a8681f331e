package store

// Key prefixes and fixed sort keys of the single table. Every key the code builds
// starts from one of these.
const (
	prefixRange    = "RANGE#"
	prefixCategory = "CATEGORY#"
	prefixProduct  = "PRODUCT#"
	prefixUser     = "USER#"
	prefixBasket   = "BASKET#"
	prefixType     = "TYPE#"
	prefixCoupon   = "COUPON#"
	prefixOrder    = "ORDER#"
	prefixIdem     = "IDEMPOTENCY#"
	pkOrderCounter = "COUNTER#ORDER"

	// pkInvoiceCounter keys the last invoice number issued; pkInvoice is the partition of
	// the numbers issued (sk the number, zero-padded); pkToInvoice the partition of the
	// orders waiting for their invoice (sk the order number).
	pkInvoiceCounter = "COUNTER#INVOICE"
	pkInvoice        = "INVOICE"
	pkToInvoice      = "INVOICING"

	// pkCreditNoteCounter keys the last credit note number issued; pkCreditNote is the
	// partition of the numbers issued (sk the number, zero-padded). A cancellation's
	// CANCELLING marker (lifecycle.go) is what the sweep finds its credit note by.
	pkCreditNoteCounter = "COUNTER#CREDITNOTE"
	pkCreditNote        = "CREDITNOTE"

	// skProfile is the sort key of a user's profile item (pk USER#{uid}).
	skProfile = "PROFILE"
	// skBasket is the sort key of a user's basket item (pk USER#{uid}); the lines kept
	// as items of their own before it (sk BASKET#{sku}) are no longer read.
	skBasket = "BASKET"
	// prefixCouponUse keys an account's uses of a coupon (pk COUPON#{id}, sk USE#{uid}).
	prefixCouponUse = "USE#"
	// pkPending is the partition of pending large orders (sk the order number).
	pkPending = "PENDING"
	// skItem is the sort key of an entity's own item (range, category, product).
	skItem = "ITEM"
	// pkSeedMarker and skSeedMarker key the item that records a finished seed load.
	pkSeedMarker = "META#SEED"
	skSeedMarker = "ITEM"

	// prefixStripeEvent and skStripeEvent key a Stripe webhook event's record
	// (stripe_events.go).
	prefixStripeEvent = "STRIPEEVENT#"
	skStripeEvent     = "STRIPEEVENT"

	// pkPriceGroup is the partition of the price groups (pricegroups.go), sk
	// prefixPriceGroup and the group's id.
	pkPriceGroup     = "PRICEGROUP"
	prefixPriceGroup = "GROUP#"

	typeRange    = "RANGE"
	typeCategory = "CATEGORY"
	typeProduct  = "PRODUCT"

	indexChildren = "gsi1"
	indexByType   = "gsi2"
	// indexStaff lists orders, accounts and coupons for staff (gsi3pk one of these).
	indexStaff    = "gsi3"
	pkOrderList   = "ORDERS"
	pkAccountList = "ACCOUNTS"
	pkCouponList  = "COUPONS"
)
