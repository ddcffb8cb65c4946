package human

import (
	"fmt"
	"time"
)

// Duration is d in the unit a report line reads best: whole microseconds
// under a millisecond, whole milliseconds under a second, seconds with two
// decimals from there on ("850µs", "12ms", "3.40s").
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	default:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
}
