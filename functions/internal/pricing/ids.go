package pricing

import "regexp"

// couponShape is a coupon code as buyers type it and the table keys it (COUPON#{id}):
// 3 to 20 capital letters and digits, without the profile's coupon- prefix.
var couponShape = regexp.MustCompile(`^[A-Z0-9]{3,20}$`)

// ValidCouponID reports whether s has a coupon code's shape: TRADE10.
func ValidCouponID(s string) bool { return couponShape.MatchString(s) }
