package expr

import (
	"slices"
	"testing"
)

// A program records the roots it names, and only those are filled in
// when the env lacks them: a root it does not name is not needed.
func TestProgramNeedsOnlyTheRootsItNames(t *testing.T) {
	for src, want := range map[string][]string{
		`world.a && slots.b || foo`:                 {"world", "slots"},
		`len(item.list) > 0 && world.n`:             {"item", "world"},
		`1 + 2 == 3`:                                nil,
		`upper(result.text) == "X" || run.turn > 1`: {"result", "run"},
	} {
		p, err := CompileGuard(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if p.allRoots || !slices.Equal(p.need, want) {
			t.Errorf("%s: need %v all=%v, want %v", src, p.need, p.allRoots, want)
		}
	}
}

// A program reading $env as a whole needs every root; a bare name's lookup
// of $env (a name that is no root) does not.
func TestProgramReadingEnvNeedsEveryRoot(t *testing.T) {
	// The whitelist refuses $env today; were it allowed, all roots.
	p, err := CompileGuard(`$env.item == nil`)
	if err == nil && !p.allRoots {
		t.Errorf("$env.item: need %v, all=false", p.need)
	}
	if e, ok := err.(*Error); err != nil && (!ok || e.Kind != KindWhitelist) {
		t.Errorf("$env.item: %v", err)
	}
	p, err = CompileGuard(`foo == nil && world.a == nil`)
	if err != nil || p.allRoots || !slices.Equal(p.need, []string{"world"}) {
		t.Errorf("bare foo: %v need %v all=%v", err, p.need, p.allRoots)
	}
}

// Roots missing from the env (or no env at all) read as empty maps in
// every evaluation path, so member access on them is nil, not an error;
// item reads nil, as upstream's (so item?.x).
func TestMissingRootsReadEmptyWithoutACopyUpFront(t *testing.T) {
	p, err := CompileGuard(`item?.x == nil && item == nil && world.n == nil && len(proposal) == 0`)
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []Env{nil, {}, {"world": map[string]any{}}} {
		if ok, err := p.EvalBool(env); err != nil || !ok {
			t.Errorf("env %v: %v %v", env, ok, err)
		}
	}
	tpl, err := CompileTemplate(`[{{ item?.x }}|{{ world.n }}]{{ range inbox.list }}x{{ end }}`)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := tpl.Render(nil); err != nil || out != "[|]" {
		t.Errorf("template: %q %v", out, err)
	}
	v, err := PrepareValue(map[string]any{"a": "{{ workspace.dir }}", "b": []any{"{{ result.ok }}"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := v.Render(nil)
	m, _ := out.(map[string]any)
	if err != nil || m == nil || m["a"] != nil || m["b"].([]any)[0] != nil {
		t.Errorf("value: %#v %v", out, err)
	}
	// The caller's env is never written.
	env := Env{"world": map[string]any{}}
	if _, err := p.Eval(env); err != nil || len(env) != 1 {
		t.Errorf("env after eval: %v %v", env, err)
	}
}

// args, menu and result read a nil map when the env lacks them (upstream's
// environment leaves them nil where a run gives none; conformance
// roots-nil-maps); one the env holds is read; a bare state reads
// WhenStateKey's value when a view's when: sets it.
func TestNilMapRoots(t *testing.T) {
	for src, want := range map[string]any{
		"args == nil && menu == nil && result == nil": true,
		"len(args) + len(menu) + len(result)":         0,
		"result.x == nil && args.y == nil":            true,
	} {
		p, err := CompileExpr(src)
		if err != nil {
			t.Fatal(src, err)
		}
		if got, err := p.Eval(Strict(Env{})); err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", src, got, err, want)
		}
	}
	p, err := CompileExpr("args.a")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Eval(Env{"args": map[string]any{"a": 1}}); err != nil || got != 1 {
		t.Errorf("held args: %v %v", got, err)
	}
	g, err := CompileGuard("state != nil")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := g.EvalBool(Strict(Env{"state": map[string]any{"path": "s"}})); ok || err != nil {
		t.Errorf("engine state: %v %v", ok, err)
	}
	if ok, err := g.EvalBool(Strict(Env{WhenStateKey: map[string]any{"path": "s"}})); !ok || err != nil {
		t.Errorf("when state: %v %v", ok, err)
	}
}
