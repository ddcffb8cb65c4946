package diag

import (
	"fmt"
	"strings"
	"testing"
)

// everyLine is a file of n lines, each with a finding and a marker for
// it, half of them files apart: the shape whose cost must stay linear.
func everyLine(n int) ([]Diagnostic, func(string) ([]byte, bool)) {
	var src strings.Builder
	ds := make([]Diagnostic, 0, n)
	for i := range n {
		fmt.Fprintf(&src, "k%d: 1 # kitsoki:ignore r\n", i)
		ds = append(ds, Diagnostic{File: "f", Line: i + 1, Severity: Warning, Rule: "r"})
	}
	data := []byte(src.String())
	return ds, func(f string) ([]byte, bool) { return data, f == "f" || f == "g" }
}

// Every line's marker hides its own line's warning and no other: one on
// the same line of another file, or a line away, is untouched.
func TestApplyIgnoresByLine(t *testing.T) {
	ds, src := everyLine(50)
	ds = append(ds, Diagnostic{File: "g", Line: 3, Severity: Warning, Rule: "q"}, Diagnostic{File: "h", Line: 3, Severity: Warning, Rule: "r"})
	res := ApplyIgnores(ds, []string{"f", "g"}, src, func(string) bool { return true }, "ignore")
	if len(res.Kept) != 2 || res.Kept[0].File != "g" || res.Kept[1].File != "h" {
		t.Fatalf("kept %+v; want the two findings no marker covers", res.Kept)
	}
	if len(res.Unused) != 50 { // every marker of g suppresses nothing
		t.Fatalf("%d unused markers; want g's 50", len(res.Unused))
	}
}

// BenchmarkApplyIgnoresEveryLine: 20,000 lines each holding a warning
// and a marker (a 580 KB story of such lines kept validate busy 13 s
// when every finding was compared with every marker).
func BenchmarkApplyIgnoresEveryLine(b *testing.B) {
	ds, src := everyLine(20_000)
	b.ReportAllocs()
	for b.Loop() {
		ApplyIgnores(ds, []string{"f"}, src, func(string) bool { return true }, "ignore")
	}
}
