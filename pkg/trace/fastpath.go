package trace

import "time"

// parseTS parses the quoted timestamp forms the writer produces
// ("YYYY-MM-DDTHH:MM:SS[.fraction]Z") without allocating. Anything else,
// or any out-of-range field, reports ok=false and the caller uses
// time.Time.UnmarshalJSON, whose result this equals.
func parseTS(q []byte) (time.Time, bool) {
	if len(q) < 22 || q[0] != '"' || q[len(q)-1] != '"' || q[len(q)-2] != 'Z' {
		return time.Time{}, false
	}
	s := q[1 : len(q)-2] // without quotes and Z
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	f, ok := tsFields(s)
	if !ok {
		return time.Time{}, false
	}
	ns, ok := tsFraction(s[19:])
	if !ok {
		return time.Time{}, false
	}
	return time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], ns, time.UTC), true
}

// tsFields reads year, month, day, hour, minute and second of
// "YYYY-MM-DDTHH:MM:SS", false when one is not digits or out of range.
func tsFields(s []byte) (f [6]int, ok bool) {
	for k, at := range [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		if f[k], ok = decimal(s[at[0]:at[1]]); !ok {
			return f, false
		}
	}
	y, mo, d := f[0], f[1], f[2]
	if mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) {
		return f, false
	}
	return f, f[3] <= 23 && f[4] <= 59 && f[5] <= 59
}

// tsFraction reads the optional ".fraction" (1 to 9 digits) as
// nanoseconds.
func tsFraction(frac []byte) (int, bool) {
	if len(frac) == 0 {
		return 0, true
	}
	if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
		return 0, false
	}
	n, ok := decimal(frac[1:])
	if !ok {
		return 0, false
	}
	for k := len(frac) - 1; k < 9; k++ {
		n *= 10
	}
	return n, true
}

// decimal reads b, all ASCII digits, as a number.
func decimal(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// interner keeps one copy of the short strings that repeat on every line
// (kinds, state paths), so reading them does not allocate. It stops
// growing at a bound so that a trace of all-distinct values costs nothing
// extra.
type interner struct{ m map[string]string }

func (in *interner) get(b []byte) string {
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(b) <= 128 {
		if in.m == nil {
			in.m = make(map[string]string, 64)
		}
		if len(in.m) < 4096 {
			in.m[s] = s
		}
	}
	return s
}

// slab hands out copies of payload bytes carved from large blocks, one
// allocation per block instead of one per event. Each copy is capped so that
// appending to it never writes into its neighbour.
type slab struct{ buf []byte }

const slabSize = 64 << 10

func (s *slab) clone(b []byte) []byte {
	if len(b) > slabSize/4 {
		return append([]byte(nil), b...)
	}
	if len(s.buf)+len(b) > cap(s.buf) {
		s.buf = make([]byte, 0, slabSize)
	}
	start := len(s.buf)
	s.buf = append(s.buf, b...)
	return s.buf[start:len(s.buf):len(s.buf)]
}
