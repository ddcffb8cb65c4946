package recost

import (
	"regexp"
	"strings"
	"testing"
)

// The instruction count is the one package regexp compiles a pattern to:
// a literal costs a few, a counted repetition its count, a pattern that
// does not parse none (regexp.Compile reports it).
func TestInsts(t *testing.T) {
	if n := Insts("abc"); n < 3 || n > 8 {
		t.Errorf("abc: %d instructions", n)
	}
	if n := Insts(strings.Repeat("(?:x?){100}", 12) + "z"); n < 2_400 {
		t.Errorf("12 repetitions of 100: %d instructions, want 2,400 or more", n)
	}
	if n := Insts("("); n != 0 {
		t.Errorf("a pattern that does not parse: %d instructions", n)
	}
	for _, expr := range []string{"Fetched widget: sprocket", "status 404", `(?s)^A.*B$`} {
		if _, err := regexp.Compile(expr); err != nil || Insts(expr) > 100 {
			t.Errorf("%s: %d instructions", expr, Insts(expr))
		}
	}
}

func TestCheck(t *testing.T) {
	if err := Check(Insts("done"), 16<<20); err != nil {
		t.Errorf("a word against the largest view: %v", err)
	}
	err := Check(Insts(strings.Repeat("(?:x?){100}", 12)+"z"), 500_000)
	if err == nil || !strings.Contains(err.Error(), "shorten the pattern or match less text") {
		t.Errorf("2,400 instructions against 500 KB: %v", err)
	}
	if err := Check(0, 1<<30); err != nil {
		t.Errorf("a pattern that does not compile: %v", err)
	}
}
