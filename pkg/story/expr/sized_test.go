package expr

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestEvalBuildsBounded: string, split, join, upper, lower and + on text
// build at most MaxEvalBytes in one evaluation (a list element counting
// listElemBytes); past it the evaluation is an error naming the operation
// and the limit, before the value is built where its size is known first.
// Before, split(string(1..999999), "") built a 7-million-element list (and
// three such levels kept validate busy 70 s at 1.2 GB), world.s + world.s
// + ... on a 1 MB value copied quadratically until the process ran out of
// memory, and a join's glue repeated as often as the list is long.
func TestEvalBuildsBounded(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	env := Env{"world": map[string]any{"s": big, "n": 2, "short": "ab"}}
	for _, src := range []string{
		`len(split(string(1..999999), "")) > 0`,
		`len(` + strings.TrimSuffix(strings.Repeat("world.s + ", 100), " + ") + `) > 0`,
		`len(join(split(string(1..40), ""), world.s)) > 0`,
		`len(upper(world.s + world.s) + lower(world.s + world.s) + string(world.s + world.s) + upper(world.s + world.s) + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s + world.s) > 0`,
	} {
		p, err := CompileGuard(src)
		if err != nil {
			t.Fatalf("%.60s: %v", src, err)
		}
		_, err = p.EvalBool(env)
		if err == nil || !strings.Contains(err.Error(), "memory budget exceeded: ") {
			t.Errorf("%.60s: %.300v, want the size budget's error", src, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "past 64 MiB of text and lists built") {
			t.Errorf("%.60s: message %.400q", src, msg)
		}
	}
}

// TestSizedOperationsAsBefore: the sized operations give what the
// built-ins and + gave, with the same errors, and each evaluation has its
// own budget (a program evaluated again, or at once on two goroutines).
func TestSizedOperationsAsBefore(t *testing.T) {
	env := Env{"world": map[string]any{"s": "a,b", "n": 2, "f": 1.5, "l": []any{"x", "y"}, "m": map[string]any{"k": "v"}}}
	for src, want := range map[string]any{
		`split(world.s, ",")`:           []string{"a", "b"},
		`split(world.s, ",", 1)`:        []string{"a,b"},
		`join(world.l, "-")`:            "x-y",
		`join(world.l)`:                 "xy",
		`upper(world.s) + lower("Q")`:   "A,Bq",
		`string(world.n) + "!"`:         "2!",
		`world.n + 1`:                   3,
		`world.n + world.f`:             3.5,
		`world.s + world.s`:             "a,ba,b",
		`"a" + "b"`:                     "ab",
		`len(world.s + "xy")`:           5,
		`world.missing + "x"`:           nil, // filled below: an error, as before
		`string(world.l)`:               "[x y]",
		`upper(world.s) == "A,B"`:       true,
		`len(split(world.s, "")) == 3`:  true,
		`join(split(world.s, ","), "")`: "ab",
	} {
		p, err := CompileExpr(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := p.Eval(env)
		if src == `world.missing + "x"` {
			if err == nil || !strings.Contains(err.Error(), "invalid operation: <nil> + string") {
				t.Errorf("%s: %v, %v; want the + error", src, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if g, w := strings.TrimSpace(strings.ReplaceAll(fmt.Sprint(got), " ", "")), strings.ReplaceAll(fmt.Sprint(want), " ", ""); g != w {
			t.Errorf("%s = %s, want %s", src, g, w)
		}
	}
	for _, src := range []string{`"a" + 1`, `upper(1)`, `split(world.s)`} {
		if _, err := CompileExpr(src); err == nil {
			t.Errorf("%s compiled; want the type error it had", src)
		}
	}
	// a program building 40 MB is evaluated again and on two goroutines
	p, err := CompileGuard(`len(world.s + world.s) > 0`)
	if err != nil {
		t.Fatal(err)
	}
	half := Env{"world": map[string]any{"s": strings.Repeat("x", 20<<20)}}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := p.EvalBool(half); !ok || err != nil {
				t.Errorf("40 MB built: %v %v", ok, err)
			}
		}()
	}
	wg.Wait()
	if ok, err := p.EvalBool(half); !ok || err != nil {
		t.Errorf("again: %v %v", ok, err)
	}
}

// TestSizedNamesNotWritable: a story cannot call a sized function itself.
func TestSizedNamesNotWritable(t *testing.T) {
	if _, err := CompileExpr(`kitsoki sized upper($env, "a")`); err == nil {
		t.Error("a sized function's name compiled")
	}
}

// TestMatchesCostBounded: `matches` whose worst case (the text's bytes
// times the instructions the pattern compiles to) passes recost.MaxSteps
// is an error naming both, not run: a match cannot be interrupted, even by
// --timeout. Before, a 1 MB world value matched against the 2 KB literal
// (a?){1000}b ran 116 s. A pattern from the world is checked the same way;
// what matches gave otherwise is unchanged.
func TestMatchesCostBounded(t *testing.T) {
	pat := "(" + strings.Repeat("a?", 600) + ")b"
	env := Env{"world": map[string]any{"s": strings.Repeat("a", 1<<20), "p": pat, "short": "ab,c", "bad": "(", "n": 1}}
	for _, src := range []string{`world.s matches "` + pat + `"`, `world.s matches world.p`} {
		p, err := CompileGuard(src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.EvalBool(env)
		if err == nil || !strings.Contains(err.Error(), "matches: the pattern compiles to") || !strings.Contains(err.Error(), "against 1048576 bytes") {
			t.Errorf("%.40s: %.300v", src, err)
		}
	}
	for src, want := range map[string]any{
		`world.short matches "^a"`:      true,
		`world.short matches "c$"`:      true,
		`world.short matches world.p`:   true,
		`world.missing matches "x"`:     false,
		`"x" matches world.missing`:     false,
		`world.short matches world.bad`: "error parsing regexp: missing closing ): `(`",
		`world.n matches "x"`:           "a number where a string is needed (1:9)",
	} {
		p, err := CompileExpr(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := p.Eval(env)
		if w, isErr := want.(string); isErr {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, %v; want an error with %q", src, got, err, w)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", src, got, err, want)
		}
	}
	if _, err := CompileExpr(`world.s matches "("`); err == nil || !strings.Contains(err.Error(), "error parsing regexp") {
		t.Errorf("a literal pattern that does not compile: %v", err)
	}
}

// TestSizedErrorsAsBefore: an evaluation error inside a sized operation
// reads as the built-in's or the VM's did, at the same place (each text
// taken from the build before the sized operations).
func TestSizedErrorsAsBefore(t *testing.T) {
	env := Env{"world": map[string]any{"n": 1, "s": "a"}}
	for src, want := range map[string]string{
		`world.missing + "x"`:        `invalid operation: <nil> + string (1:15)`,
		`"a" + world.missing + "b"`:  `invalid operation: string + <nil> (1:5)`,
		`upper(world.n)`:             `a number where a string is needed (1:1)`,
		`split(world.n, ",")`:        `a number where a string is needed (1:1)`,
		`join(world.n, ",")`:         `invalid argument for join (type int) (1:1)`,
		`string(world.s) + world.n`:  `invalid operation: string + int (1:17)`,
		`len(world.s + world.q) > 0`: `invalid operation: string + <nil> (1:13)`,
	} {
		p, err := CompileExpr(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := p.Eval(env); err == nil || !strings.HasSuffix(strings.SplitN(err.Error(), "\n", 2)[0], "\": "+want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

// TestMatchesCompiledOncePerPattern: a guard's matches, evaluated again
// and again (a long flow, a timer, an emit cycle), compiles and sizes each
// pattern text once per program, a literal or one from the world: an
// evaluation then allocates about what one without matches does. Before,
// every evaluation parsed and compiled the pattern again to size it (and
// one from the world a second time to match), some 100 allocations more
// for this pattern; a pattern still refused on every evaluation past
// recost's bound (TestMatchesCostBounded).
func TestMatchesCompiledOncePerPattern(t *testing.T) {
	pat := `^(alpha|beta|gamma)+-[0-9]{2,4}(x|y|z)*$`
	env := Env{"world": map[string]any{"s": "alphabeta-123xy", "p": pat}}
	allocs := func(src string) float64 {
		p, err := CompileGuard(src)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := p.EvalBool(env); err != nil || !ok && strings.Contains(src, "matches") {
			t.Fatalf("%s: %v, %v", src, ok, err)
		}
		return testing.AllocsPerRun(50, func() { _, _ = p.EvalBool(env) })
	}
	plain := allocs(`world.s == "alphabeta-123xy" && world.s + "" != ""`)
	for _, src := range []string{`world.s matches "` + pat + `"`, `world.s matches world.p`} {
		if got := allocs(src); got > plain+5 {
			t.Errorf("%s: %v allocations an evaluation, want at most %v (a guard without matches: %v)", src, got, plain+5, plain)
		}
	}
}

// TestPatternCacheBounded: a program meeting ever new patterns keeps at
// most maxCachedPatterns of them, and each still answers as compiled.
func TestPatternCacheBounded(t *testing.T) {
	p, err := CompileGuard(`world.s matches world.p`)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 * maxCachedPatterns {
		env := Env{"world": map[string]any{"s": fmt.Sprintf("n%d", i), "p": fmt.Sprintf("^n%d$", i)}}
		if ok, err := p.EvalBool(env); err != nil || !ok {
			t.Fatalf("pattern %d: %v, %v", i, ok, err)
		}
		if n := len(p.patterns.m); n > maxCachedPatterns {
			t.Fatalf("after %d patterns the program holds %d, want at most %d", i+1, n, maxCachedPatterns)
		}
	}
}

// TestRuntimePatternBounded: a `matches` pattern that is not a literal (a
// world value an agent's answer or a host's result set) is held to what a
// literal one is at load time, before it compiles: at most
// maxRuntimePatternBytes and recost.MaxInsts instructions, each refusal an
// error at the operator naming the bound and the fix, and remembered, so a
// guard evaluated again does not size the pattern again. Before, such a
// pattern compiled unsized, one past the cache on every evaluation, and a
// short one of many `[\p{L}\p{N}]{1,1000}` to hundreds of megabytes before
// it matched. A pattern within the bounds, and a literal, answer as before
// (TestMatchesCostBounded).
func TestRuntimePatternBounded(t *testing.T) {
	p, err := CompileGuard(`world.s matches world.p`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pat, want string }{
		{strings.Repeat("a", 2<<20), fmt.Sprintf("matches: the pattern is %d bytes, more than the %d a pattern built at run time", 2<<20, maxRuntimePatternBytes)},
		{strings.Repeat("a", maxRuntimePatternBytes+1), "a pattern built at run time"},
		{strings.Repeat(`[\p{L}\p{N}]{1,1000}`, 200), "matches: the pattern would compile to about"},
		{strings.Repeat(`(?:[a-z]{1,100}){1,10}`, 15), "shorten the pattern or its repeat counts"},
	} {
		env := Env{"world": map[string]any{"s": "hello", "p": c.pat}}
		for range 2 {
			ok, err := p.EvalBool(env)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "(1:9)") {
				t.Fatalf("%.40s: %v, %.300v; want an error at the operator with %q", c.pat, ok, err, c.want)
			}
		}
		if len(c.pat) <= maxRuntimePatternBytes {
			if got := testing.AllocsPerRun(5, func() { _, _ = p.EvalBool(env) }); got > 100 {
				t.Errorf("%.40s: a refused pattern evaluated again allocates %v times; the refusal should be remembered", c.pat, got)
			}
		}
	}
	// as long as may be, and one instruction: a class
	within := "[" + strings.Repeat("a", maxRuntimePatternBytes-2) + "]"
	if ok, err := p.EvalBool(Env{"world": map[string]any{"s": "a", "p": within}}); err != nil || !ok {
		t.Fatalf("a pattern at the bound: %v, %v", ok, err)
	}
}
