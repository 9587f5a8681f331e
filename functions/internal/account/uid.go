package account

// ValidUID says s could be a Firebase uid (1 to 128 letters, digits, - or _): a path or
// field that cannot be one is never looked up.
func ValidUID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
