package envflag

import "strings"

// Parse reads an on/off variable's value: 1, true, yes or on are on; 0,
// false, no, off or empty are off (any case, spaces around ignored); ok is
// false for any other value, which a caller refuses rather than guesses.
func Parse(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, true
	case "", "0", "false", "no", "off":
		return false, true
	}
	return false, false
}
