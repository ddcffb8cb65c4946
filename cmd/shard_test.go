package cmd

import (
	"strconv"
	"strings"
	"testing"
)

// A --shard value is read whole: trailing text or a third part is
// refused, not cut off.
func TestParseShard(t *testing.T) {
	for in, want := range map[string][2]int{"": {0, 0}, "2/4": {2, 4}, "1/1": {1, 1}} {
		if i, n, err := parseShard(in); err != nil || i != want[0] || n != want[1] {
			t.Errorf("%q = %d/%d %v", in, i, n, err)
		}
	}
	for _, in := range []string{"2/4x", "2/4/9", " 2/4", "2", "/4", "0/4", "5/4", "2/0", "a/b", "2 /4"} {
		if _, _, err := parseShard(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// FuzzParseShard: any --shard value: no panic; "" is no sharding (0/0),
// an accepted value is i/n with 1 <= i <= n written whole (no blank, no
// third part), and a refusal quotes the value and shows the form.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"", "2/4", "1/1", "2/4x", "+1/+2", "01/3", "9223372036854775807/9223372036854775807", "1/99999999999999999999", "-1/2", "1/-2", "１/２"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, n, err := parseShard(s)
		switch {
		case err != nil:
			if i != 0 || n != 0 || !strings.Contains(err.Error(), strconv.Quote(s)) || !strings.Contains(err.Error(), "e.g. --shard 2/4") {
				t.Fatalf("%q: %d/%d, %v", s, i, n, err)
			}
		case s == "":
			if i != 0 || n != 0 {
				t.Fatalf("%q: %d/%d, want 0/0 (no sharding)", s, i, n)
			}
		case i < 1 || i > n || strings.ContainsAny(s, " \t\n") || strings.Count(s, "/") != 1:
			t.Fatalf("%q accepted as %d/%d", s, i, n)
		}
	})
}
