package fetch

import (
	"regexp"
	"strconv"
	"testing"
)

// FuzzContentRange: any Content-Range value is read as RFC 9110's
// grammar reads it (a regular expression of it here, and the numbers
// compared): digits only, first <= last < complete.
func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-99/100", "bytes 5-9/*", "bytes */100", "bytes -1-2/3", "bytes 5-9/-7", "bytes +5-9/10", "", "bytes 5-junk/10", "bytes 9-5/10", "bytes 5-10/10", "bytes 5-/10", "bytes 1-2/9223372036854775808"} {
		f.Add(s)
	}
	grammar := regexp.MustCompile(`^bytes ([0-9]+)-([0-9]+)/([0-9]+|\*)$`)
	f.Fuzz(func(t *testing.T, s string) {
		start, total, ok := contentRange(s)
		want, wantStart, wantTotal := false, int64(0), int64(0)
		if m := grammar.FindStringSubmatch(s); m != nil {
			first, err1 := strconv.ParseInt(m[1], 10, 64)
			last, err2 := strconv.ParseInt(m[2], 10, 64)
			complete, err3 := int64(-1), error(nil)
			if m[3] != "*" {
				complete, err3 = strconv.ParseInt(m[3], 10, 64)
			}
			want = err1 == nil && err2 == nil && err3 == nil && first <= last && (complete == -1 || last < complete)
			if want {
				wantStart, wantTotal = first, complete
			}
		}
		if ok != want || start != wantStart || total != wantTotal {
			t.Fatalf("%q -> %d, %d, %v; want %d, %d, %v", s, start, total, ok, wantStart, wantTotal, want)
		}
	})
}
