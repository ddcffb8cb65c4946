package cmd

import "testing"

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
