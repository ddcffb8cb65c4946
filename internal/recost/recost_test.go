package recost

import (
	"regexp"
	"regexp/syntax"
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

// TestCompileBounded: a pattern whose repeats multiply past MaxInsts is
// refused before it compiles (700 `[\p{L}\p{N}]{1,1000}` took 592 MB), the
// estimate stays near what regexp compiles for ordinary patterns, and a
// Budget refuses the pattern that would take the file past MaxBudgetInsts.
func TestCompileBounded(t *testing.T) {
	for _, expr := range []string{strings.Repeat(`(?:[\p{L}\p{N}]{1,100}){1,10}`, 6), strings.Repeat(`[\p{L}\p{N}]{1,1000}`, 6), strings.Repeat(`(?:(?:ab){1,10}){1,100}`, 4)} {
		if _, err := Compile(expr); err == nil || !strings.Contains(err.Error(), "shorten the pattern or its repeat counts") {
			t.Errorf("%.40s: %v, want the refusal", expr, err)
		}
	}
	for _, expr := range []string{"abc", `.{0,1000}`, `sk-[A-Za-z0-9]{8,}`, `(?i)^(a|bc|d+)?x*$`, `[a-z]{1,1000}[0-9]{1,1000}`, `(?:x?){100}z`} {
		re, err := Compile(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if est, got := progSize(mustParse(t, expr))+2, Insts(re.String()); est < got {
			t.Errorf("%s: estimated %d instructions, compiles to %d", expr, est, got)
		}
	}
	if _, err := Compile("("); err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Errorf("a pattern that does not parse: %v, want regexp's error", err)
	}
	b := NewBudget()
	for i := range 24 {
		if _, err := b.Compile(`[a-z]{1,1000}[0-9]{1,1000}` + string(rune('A'+i))); err != nil {
			t.Fatalf("pattern %d within the budget: %v", i, err)
		}
	}
	if _, err := b.Compile(`[a-z]{1,1000}[0-9]{1,1000}Z`); err == nil || !strings.Contains(err.Error(), "use fewer or shorter patterns") {
		t.Errorf("past the budget: %v", err)
	}
}

func mustParse(t *testing.T, expr string) *syntax.Regexp {
	t.Helper()
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

// FuzzCompile: any pattern is compiled or refused without a panic, and one
// compiled is estimated at no fewer instructions than regexp compiles it to.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{"abc", `.{0,1000}`, `(?:x?){100}z`, `[\p{L}\p{N}]{1,1000}`, `(a|b|)*?\z`, `(?i)ß{2,}`, "("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		re, err := Compile(expr)
		if err != nil {
			return
		}
		if est, got := progSize(mustParse(t, expr))+2, Insts(re.String()); est < got {
			t.Errorf("%q: estimated %d instructions, compiles to %d", expr, est, got)
		}
	})
}

// TestBudgetRemembers: a pattern compiled again within a Budget is the
// one compiled before and spends nothing more (a story's fixtures repeat
// theirs through aliases: 1,000 turns of one pattern in a 40-byte list),
// Insts is remembered for it and 0 for one the budget refused, and
// concurrent compiles of distinct patterns spend the budget exactly once
// each.
func TestBudgetRemembers(t *testing.T) {
	b := NewBudget()
	pat := `[a-z]{1,1000}[0-9]{1,1000}`
	first, err := b.Compile(pat)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if re, err := b.Compile(pat); err != nil || re != first {
			t.Fatalf("the same pattern again: %v, a new program: %v", err, re != first)
		}
	}
	if got, want := b.Insts(pat), Insts(pat); got != want {
		t.Errorf("Insts: %d, want %d", got, want)
	}
	done := make(chan error)
	for i := range 30 {
		go func() {
			_, err := b.Compile(pat + string(rune('A'+i)))
			done <- err
		}()
	}
	var refused []string
	for range 30 {
		if err := <-done; err != nil {
			refused = append(refused, err.Error())
		}
	}
	if len(refused) != 7 { // 24 such patterns fit, the first among them
		t.Fatalf("%d of 30 refused, want 7: %v", len(refused), refused)
	}
	if n := b.Insts(pat + "extra"); n != 0 {
		t.Errorf("Insts of a pattern the budget did not compile: %d, want 0", n)
	}
	var nb *Budget
	if _, err := nb.Compile(pat); err != nil || nb.Insts(pat) != Insts(pat) {
		t.Errorf("a nil budget: %v, %d instructions", err, nb.Insts(pat))
	}
}
