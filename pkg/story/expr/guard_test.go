package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCompileGuardAllowed(t *testing.T) {
	env := Env{
		"world": map[string]any{"n": 3, "name": "Ada", "tags": []any{"a", "b"}, "empty": nil, "flag": true,
			"verdict": map[string]any{"intent": "accept"}},
		"slots": map[string]any{"choice": "yes"},
		"run":   map[string]any{"id": "r1", "turn": 2},
	}
	cases := []struct {
		src  string
		want bool
	}{
		{"world.n > 2", true},
		{"world.n == 3 && slots.choice == 'yes'", true},
		{"!world.flag", false},
		{"not world.flag", false},
		{"'a' in world.tags", true},
		{"world.name matches '^A'", true},
		{"world.missing == nil", true},
		{"world.missing ?? true", true},
		{"world?.verdict?.intent == 'accept'", true},
		{"world.verdict.intent == 'accept' || world.verdict.intent == 'revise'", true},
		{"len(world.tags) == 2", true},
		{"len(world.empty) == 0", true},
		{"len(world.nothing) == 0", true},
		{"len(nil) == 0", true},
		{"upper(trim(' ada ')) == 'ADA'", true},
		{"lower(world.name) == 'ada'", true},
		{"join(split('a,b', ','), '-') == 'a-b'", true},
		{"hasPrefix(world.name, 'A') && hasSuffix(world.name, 'a')", true},
		{"int('3') + float('0.5') > 3", true},
		{"string(world.n) == '3'", true},
		{"abs(-2) == 2 && round(1.6) == 2", true},
		{"type(world.n) == 'int'", true},
		{"get(world.verdict, 'intent') == 'accept'", true},
		{"len(keys(world.verdict)) == 1", true},
		{"min(1, 2) == 1 && max(1, 2) == 2", true},
		{"now() != nil", true},
		{"run.turn == 2 && run.id == 'r1'", true},
		{"[1, 2][0] == 1", true},
		{"world.n > 1 ? true : false", true},
		{"world.name | lower() == 'ada'", true},
		{"event.x == nil && args.x == nil && menu.x == nil && item?.x == nil", true},
		{"proposal.x == nil && inbox.x == nil && workspace.x == nil && result.x == nil", true},
		{"world.n", false}, // unknown static type: compiles; int at run time is an error (checked below)
		{"true", true},
		{"false", false},
		{"nil == nil", true},
	}
	for _, c := range cases {
		p, err := CompileGuard(c.src)
		if err != nil {
			t.Errorf("CompileGuard(%q): %v", c.src, err)
			continue
		}
		if c.src == "world.n" {
			if _, err := p.EvalBool(env); err == nil {
				t.Errorf("EvalBool(%q) with n=3: want run-time error for non-bool", c.src)
			}
			continue
		}
		got, err := p.EvalBool(env)
		if err != nil {
			t.Errorf("EvalBool(%q): %v", c.src, err)
			continue
		}
		if got != c.want {
			t.Errorf("EvalBool(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestViewFunctionsAllowed(t *testing.T) {
	for _, fn := range guardViewFunctions() {
		src := fn + "('go') != nil"
		p, err := CompileGuard(src)
		if err != nil {
			t.Fatalf("CompileGuard(%q): %v", src, err)
		}
		env := Env{fn: func(s string) string { return "ok:" + s }}
		if ok, err := p.EvalBool(env); err != nil || !ok {
			t.Errorf("EvalBool(%q) = %v, %v", src, ok, err)
		}
	}
}

func TestWhitelistViolations(t *testing.T) {
	allowed := "slots, world, event, run, args, menu, item, proposal, inbox, workspace, result"
	cases := []struct{ src, want string }{
		{"sum(world.xs) > 0", `expr whitelist violation in "sum(world.xs) > 0": forbidden built-in function "sum"`},
		{"os.Getenv('HOME') == ''", `expr whitelist violation in "os.Getenv('HOME') == ''": forbidden user-defined function call "os.Getenv" (only built-in functions are allowed)`},
		{"foo() == 1", `expr whitelist violation in "foo() == 1": forbidden user-defined function call "foo" (only built-in functions are allowed)`},
		{"world.fn() == 1", `expr whitelist violation in "world.fn() == 1": forbidden user-defined function call "world.fn" (only built-in functions are allowed)`},
		{"any(world.xs, {# > 1})", `expr whitelist violation in "any(world.xs, {# > 1})": lambda/predicate expressions are not allowed; forbidden built-in function "any"`},
		{"let x = 1; x > 0", `expr whitelist violation in "let x = 1; x > 0": variable declarations (let) are not allowed`},
		{"{a: 1}.a == 1", `expr whitelist violation in "{a: 1}.a == 1": map literal expressions are not allowed`},
		{"$host_error.code == 'TIMEOUT'", `expr whitelist violation in "$host_error.code == 'TIMEOUT'": member access on forbidden root "$host_error" (allowed: ` + allowed + `)`},
		{"env.HOME == '' && sum([1]) > 0", `expr whitelist violation in "env.HOME == '' && sum([1]) > 0": member access on forbidden root "env" (allowed: ` + allowed + `); forbidden built-in function "sum"`},
		{"state.path == 'x'", `expr whitelist violation in "state.path == 'x'": member access on forbidden root "state" (allowed: ` + allowed + `)`},
		{"upper(x.y) == 'A'", `expr whitelist violation in "upper(x.y) == 'A'": member access on forbidden root "x" (allowed: ` + allowed + `)`},
		{"toJSON(world) != ''", `expr whitelist violation in "toJSON(world) != ''": forbidden built-in function "toJSON"`},
		// the bare-name lookup's own name does not smuggle its arguments past the whitelist
		{`__kitsoki_bare_name(sum([1]), "x") == nil`, `expr whitelist violation in "__kitsoki_bare_name(sum([1]), \"x\") == nil": forbidden built-in function "sum"`},
	}
	for _, c := range cases {
		_, err := CompileGuard(c.src)
		if err == nil {
			t.Errorf("CompileGuard(%q): no error, want %q", c.src, c.want)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("CompileGuard(%q):\n got %s\nwant %s", c.src, err, c.want)
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindWhitelist || e.Src != c.src {
			t.Errorf("CompileGuard(%q): error %#v, want *Error kind whitelist", c.src, err)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		src, wantPrefix string
		col             int
	}{
		{"world.x|default:'y'", `expr compile "world.x|default:'y'": unexpected token Operator(":") (1:16)`, 16},
		{"filter(world.xs, {# > 1})", `expr compile "filter(world.xs, {# > 1})": expected bool, but got []interface {}`, 0},
		{"1 + 2", `expr compile "1 + 2": expected bool, but got int`, 0},
		{"'abc'", `expr compile "'abc'": expected bool, but got string`, 0},
		{"world.x ==", `expr compile "world.x ==": unexpected token EOF`, 0},
		{"(world.x", `expr compile "(world.x": unexpected token EOF`, 0},
	}
	for _, c := range cases {
		_, err := CompileGuard(c.src)
		if err == nil {
			t.Errorf("CompileGuard(%q): no error", c.src)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.wantPrefix) {
			t.Errorf("CompileGuard(%q):\n got %s\nwant prefix %s", c.src, err, c.wantPrefix)
		}
		e := err.(*Error)
		if e.Kind != KindCompile {
			t.Errorf("CompileGuard(%q): kind %v, want compile", c.src, e.Kind)
		}
		if c.col != 0 && (e.Col != c.col || e.Line != 1) {
			t.Errorf("CompileGuard(%q): position %d:%d, want 1:%d", c.src, e.Line, e.Col, c.col)
		}
	}
	// The snippet and caret follow the message, as upstream prints them.
	_, err := CompileGuard("world.x|default:'y'")
	if !strings.Contains(err.Error(), "\n | world.x|default:'y'\n | ...............^") {
		t.Errorf("compile error lacks snippet: %q", err)
	}
}

func TestCompileExprTyped(t *testing.T) {
	env := Env{"world": map[string]any{"n": 2, "m": map[string]any{"a": 1}}}
	cases := []struct {
		src  string
		want any
	}{
		{"world.n + 1", 3},
		{"'x' + 'y'", "xy"},
		{"world.m", map[string]any{"a": 1}},
		{"[1, 'a']", []any{1, "a"}},
		{"world.missing", nil},
		{"world.n > 1 ? 'big' : 'small'", "big"},
	}
	for _, c := range cases {
		p, err := CompileExpr(c.src)
		if err != nil {
			t.Errorf("CompileExpr(%q): %v", c.src, err)
			continue
		}
		got, err := p.Eval(env)
		if err != nil {
			t.Errorf("Eval(%q): %v", c.src, err)
			continue
		}
		if Stringify(got) != Stringify(c.want) || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", c.want) {
			t.Errorf("Eval(%q) = %#v, want %#v", c.src, got, c.want)
		}
	}
	// CompileExpr does not demand bool; EvalBool does at run time.
	p, err := CompileExpr("world.n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.EvalBool(env); err == nil || !strings.Contains(err.Error(), "expected true/false, got a number") {
		t.Errorf("EvalBool on int: %v", err)
	}
	// The whitelist applies to value expressions too.
	if _, err := CompileExpr("sum([1])"); err == nil {
		t.Error("CompileExpr(sum): no whitelist error")
	}
}

func TestEvalMissingRootsAndErrors(t *testing.T) {
	p, err := CompileGuard("world.x == nil && slots.y == nil")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := p.EvalBool(nil); err != nil || !ok {
		t.Errorf("EvalBool(nil env) = %v, %v; want true (missing roots read as empty maps)", ok, err)
	}
	env := Env{"world": map[string]any{}}
	if ok, err := p.EvalBool(env); err != nil || !ok {
		t.Errorf("EvalBool = %v, %v", ok, err)
	}
	if _, ok := env["slots"]; ok {
		t.Error("Eval modified the caller's env")
	}
	// An unknown-typed guard that reads nil is false (expr-lang's bool cast).
	g, _ := CompileGuard("world.unset")
	if ok, err := g.EvalBool(Env{}); err != nil || ok {
		t.Errorf("EvalBool(world.unset) = %v, %v; want false, nil", ok, err)
	}
	// Run-time errors are *Error of kind eval with a position.
	q, _ := CompileGuard("world.a.b == 1")
	_, err = q.EvalBool(Env{"world": map[string]any{}})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindEval || !strings.HasPrefix(e.Msg, `expr eval "world.a.b == 1": cannot fetch b from <nil>`) || e.Col != 9 {
		t.Errorf("eval error = %#v", err)
	}
}

func TestWhitelistPositions(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
	}{
		{"world.n > 0 && sum([1]) > 0", 1, 16},
		{"world.n > 0 && os.Getenv('X') == ''", 1, 16},
		{"world.n > 0 && $host_error.code == 'T'", 1, 16},
		{"world.n > 0 &&\n  {a: 1}.a == 1", 2, 3},
		{"let y = 1; é == 'x' || {b: 2}.b == y", 1, 5},
		{"'é' == 'x' || [{b: 2}][0].b == 1", 1, 16},
	}
	for _, c := range cases {
		_, err := CompileGuard(c.src)
		e, ok := err.(*Error)
		if !ok || e.Kind != KindWhitelist {
			t.Errorf("CompileGuard(%q) = %v, want whitelist error", c.src, err)
			continue
		}
		if e.Line != c.line || e.Col != c.col {
			t.Errorf("CompileGuard(%q): at %d:%d, want %d:%d", c.src, e.Line, e.Col, c.line, c.col)
		}
	}
	// Inside a template the column points into the whole string.
	_, err := CompileTemplate("x {{ world.n + sum([1]) }}")
	if e, ok := err.(*Error); !ok || e.Line != 1 || e.Col != 16 {
		t.Errorf("template whitelist position = %#v", err)
	}
}

func TestWhitelistListsAreCopies(t *testing.T) {
	r := guardRoots()
	r[0] = "os"
	if _, err := CompileGuard("os.x == 1"); err == nil {
		t.Error("mutating guardRoots() changed the whitelist")
	}
	if len(guardBuiltins()) != 19 || len(guardViewFunctions()) != 4 || guardRoots()[0] != "slots" {
		t.Errorf("lists: %v %v %v", guardRoots(), guardBuiltins(), guardViewFunctions())
	}
}

// A built-in meeting a value of the wrong type fails with what the author
// can act on, not Go's run-time text (upstream shows "interface
// conversion: interface {} is nil, not string").
func TestEvalErrorsArePlain(t *testing.T) {
	env := Env{"world": map[string]any{"n": 3, "z": 0, "l": []any{1}, "m": map[string]any{}}}
	for src, want := range map[string]string{
		"upper(world.u)":          `expr eval "upper(world.u)": nil (an unset world key or slot?) where a string is needed`,
		"lower(world.n)":          `expr eval "lower(world.n)": a number where a string is needed`,
		"!world.u":                `expr eval "!world.u": nil (an unset world key or slot?) where true/false is needed`,
		"int(world.u)":            `expr eval "int(world.u)": nil (an unset world key or slot?) where a value is needed`,
		"keys(world.u)":           `expr eval "keys(world.u)": cannot get keys from nil (an unset world key or slot?)`,
		"join(world.u, ',')":      `expr eval "join(world.u, ',')": invalid argument for join (type nil)`,
		"world.n % world.z":       `expr eval "world.n % world.z": integer division by zero`,
		"split(world.n, ',')":     `expr eval "split(world.n, ',')": a number where a string is needed`,
		"hasPrefix(world.u, 'a')": `expr eval "hasPrefix(world.u, 'a')": nil (an unset world key or slot?) where a string is needed`,
		"world.u % world.m":       `expr eval "world.u % world.m": invalid operation: <nil> % object (1:`,
	} {
		p, err := CompileExpr(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		_, err = p.Eval(env)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v\nwant prefix %s", src, err, want)
		}
	}
	// a scalar's conversion keeps upstream's run-time text (the existing
	// engine's turn.error for these guards)
	for src, want := range map[string]string{
		"world.s": `expr eval "world.s": invalid operation: bool(string) (1:1)`,
		"world.n": `expr eval "world.n": invalid operation: bool(int) (1:1)`,
	} {
		g, err := CompileGuard(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.EvalBool(Env{"world": map[string]any{"s": "hi", "n": 3}}); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("guard %s: %v\nwant prefix %s", src, err, want)
		}
	}
	p, err := CompileGuard("(world.l)")
	if err != nil {
		t.Fatal(err)
	}
	want := `expr eval "(world.l)": invalid operation: a list where true/false is needed`
	if _, err := p.Eval(env); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("guard (world.l): %v\nwant prefix %s", err, want)
	}
}
