// Package receiving is the back office's work on a delivery of forward products
// (docs/forward-orders.md "Receiving and allocation"): staff record a receipt (SKU and
// units), the shop proposes how to share each SKU among its open forward lines by the
// shop's rule (forward.Propose), staff adjust and apply it. Applying is three steps, each
// safe to repeat after a crash at any point: the plan is stored on the receipt with a
// release order number per forward order; each forward order is then allocated in one
// transaction (its release order, its lines' units moved, the receipt's count, the
// email); last the leftover units go to stock and the receipt is closed. It declares the
// store it needs (Store) and imports no HTTP or AWS code.
package receiving
