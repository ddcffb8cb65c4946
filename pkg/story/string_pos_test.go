package story

import (
	"fmt"
	"strings"
	"testing"
)

// TestStringPosFirstScalar checks ViewElement.StringPos: the position of
// the first scalar of the body holding a string (keys excluded), for a
// small body and for one large enough to be compacted while it is
// gathered, and a zero Pos for a string the body does not hold.
func TestStringPosFirstScalar(t *testing.T) {
	for _, n := range []int{3, 5, 6000} {
		var b strings.Builder
		b.WriteString("app: {id: sp}\nroot: a\nstates:\n  a:\n    view:\n      - list:\n          items:\n")
		// Item i is at line 8+i; its label is "x<i%50>" and its hint
		// "dup", so every string repeats and the first one wins.
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "            - {label: x%d, hint: dup}\n", i%50)
		}
		st, _ := LoadSource("sp.yaml", []byte(b.String()), Options{LookupEnv: noEnv})
		if st == nil {
			t.Fatal("no story")
		}
		el := st.State("a").View.Elements[0]
		if p := el.StringPos("dup"); p.Line != 8 || p.Col != 33 || p.File != el.Pos.File {
			t.Errorf("n=%d: dup at %+v, want line 8 col 33", n, p)
		}
		if p := el.StringPos("x2"); p.Line != 10 || p.Col != 23 {
			t.Errorf("n=%d: x2 at %+v, want line 10 col 23", n, p)
		}
		if p := el.StringPos("label"); p != (Pos{}) {
			t.Errorf("n=%d: a key has a position: %+v", n, p)
		}
		if p := el.StringPos("nope"); p != (Pos{}) {
			t.Errorf("n=%d: nope at %+v", n, p)
		}
		want := min(n, 50) + 1 // distinct strings, sorted
		if 2*n <= smallStrPos {
			want = 2 * n // every string, in document order
		}
		if len(el.strPos) != want {
			t.Errorf("n=%d: %d positions kept, want %d", n, len(el.strPos), want)
		}
	}
}
