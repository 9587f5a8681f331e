// Package shoperr is the shop's error vocabulary: the kinds of refusal every part of the
// shop (basket, orders, lists, the store, the back office) answers with, and that the API
// maps to statuses in one place (api.writeError). It imports nothing of the shop's, so
// any package can use it without depending on another's business rules.
//
// Every message held here is for a buyer or staff member as sent: a whole sentence,
// starting with a capital and ending with a full stop, that says what to do next.
package shoperr
