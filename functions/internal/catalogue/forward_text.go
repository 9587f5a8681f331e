package catalogue

import "strconv"

// ForwardText writes a forward marking as staff read it in an import's difference and the
// audit trail: "from 2027-09-01, order by 2027-06-30, 500 expected"; "" for none.
func ForwardText(f *Forward) string {
	if f == nil {
		return ""
	}
	s := "from " + f.DeliveryFrom + ", order by " + f.OrderBy
	if f.Expected > 0 {
		s += ", " + strconv.Itoa(f.Expected) + " expected"
	}
	return s
}
