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
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(s[0:4])
	mo, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	h, ok4 := num(s[11:13])
	mi, ok5 := num(s[14:16])
	sec, ok6 := num(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	ns := 0
	if frac := s[19:]; len(frac) > 0 {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		n, ok := num(frac[1:])
		if !ok {
			return time.Time{}, false
		}
		for k := len(frac) - 1; k < 9; k++ {
			n *= 10
		}
		ns = n
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, ns, time.UTC), true
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
