package view

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// kinds loads testdata/kinds (which holds, on purpose, the lint errors
// upstream's loader accepts: a map literal in a when:, a pongo2 ternary,
// an unterminated tag, a broken layout, an include leaving the roots).
func kinds(t *testing.T) (*Renderer, map[string]any) {
	t.Helper()
	st, _ := loadLax(t, "testdata/kinds")
	return newRenderer(st), defaults(st)
}

func TestElementKinds(t *testing.T) {
	r, w := kinds(t)
	cases := map[string]string{
		"literal": "no template here {not pongo}",
		// a marker is used as written (upstream's)
		"list": "number first Ada\nnumber second     with a hint\nnumber third\n\nnone bare\n\n* star",
		// an empty value keeps its padding (upstream's)
		"kv": "Zeta:    2\nA:       first declared last in sort order\nMiddle:  ",
		"banner": strings.Repeat("═", 40) + "\n  Ada\n" + strings.Repeat("═", 40) + "\n\n" +
			strings.Repeat("═", 80) + "\n  A VERY LONG BANNER TITLE THAT GOES ON  ·  and a subtitle that pushes the rule past eighty columns\n" + strings.Repeat("═", 80),
		"choices": "Pick some?:\n\n  [ ] one\n  [ ] two Ada  second\n\n" + hintMulti,
		"form":    "  I want _type it____ and _more_______, not ____________.\n\n" + hintForm,
		"media":   "📎  A screenshot\n   → .artifacts/shot.png\n\n📎  bare\n   → bare",
	}
	wantRenders(t, r, w, cases)
}

func TestTemplateContext(t *testing.T) {
	r, w := kinds(t)
	got, err := r.RenderView("plain", w, map[string]any{"slots": map[string]any{"s": "S"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "n=2 flag=True name=Ada path=plain slot=S"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	// ?? is rewritten to |default:, slots default to empty.
	got = render(t, r, "plain", with(w, "name", nil))
	if want := "n=2 flag=True name=none path=plain slot="; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	// A nil world renders as an empty one.
	if got := render(t, r, "plain", nil); got != "n= flag= name=none path=plain slot=" {
		t.Errorf("nil world: %q", got)
	}
}

func TestWhenGuardsAndHelpers(t *testing.T) {
	var mu sync.Mutex
	var warns []error
	warn := func(e error) { mu.Lock(); warns = append(warns, e); mu.Unlock() }
	r, w := kinds(t)
	// n=2: the go arm's guard (n > 5) fails, so go is blocked, and the
	// element guarded by available('go') is omitted. The when: that fails
	// to evaluate omits its element with a warning (one that fails to
	// compile fails the view: TestRenderErrors).
	want := "shown\n\nhelpers go=False stop=False\n\n  indented code\n    kept"
	if got, err := r.RenderView("guards", w, map[string]any{expr.WarnKey: warn}); err != nil || got != want {
		t.Errorf("got %q (%v) want %q", got, err, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), "invalid operation: string > int") || !strings.Contains(warns[0].Error(), "app.yaml:57:") {
		t.Errorf("warnings: %v", warns)
	}
	// n=9: go becomes available; the guarded element shows.
	want = "shown\n\nhelpers go=True stop=False\n\nguarded by a helper\n\n  indented code\n    kept"
	if got := render(t, r, "guards", with(w, "n", 9)); got != want {
		t.Errorf("n=9: got %q want %q", got, want)
	}
	// flag=false flips both headings.
	if got := render(t, r, "guards", with(w, "flag", false)); !strings.HasPrefix(got, "hidden\n\n") {
		t.Errorf("flag=false: %q", got)
	}
}

func TestHelperStatus(t *testing.T) {
	st, _ := loadLax(t, "testdata/kinds")
	r := newRenderer(st)
	s := r.states["guards"]
	env := r.env(s, nil, map[string]any{"n": 1}, nil)
	h := &helpers{r: r, s: s, env: env}
	if st, reason := h.status("go"); st != "blocked" || reason != "n is too small" {
		t.Errorf("go: %s %q", st, reason)
	}
	if st, _ := h.status("stop"); st != "unknown" {
		t.Errorf("stop: %s", st)
	}
	blocked := env["blocked"].(func(string) bool)
	reason, status := env["blocked_reason"].(func(string) string), env["intent_status"].(func(string) string)
	if !blocked("go") || reason("go") != "n is too small" || status("go") != "blocked" {
		t.Error("helpers disagree with status")
	}
	// upstream's menu: go is blocked with its guard_hint as the reason
	menu := env["menu"].(map[string]any)
	mblocked, primary := menu["blocked"].([]any), menu["primary"].([]any)
	if len(primary) != 0 || len(mblocked) != 1 || mblocked[0].(map[string]any)["intent"] != "go" ||
		mblocked[0].(map[string]any)["reason"] != "n is too small" || mblocked[0].(map[string]any)["primary"] != false {
		t.Errorf("menu: %v", menu)
	}
}

func TestExtendsAndFiles(t *testing.T) {
	r, w := kinds(t)
	cases := map[string]string{
		"extends":         "[T 2\n\nunder the heading]\n[scalar block Ada]\nfoot for extends\n\n",
		"extends_default": "[default top]\n[default middle]\nfoot for extends_default\n\n",
		"file":            "WHOLE 2 From a file\n",
	}
	wantRenders(t, r, w, cases)
}

// A state without a view of its own shows nothing, as upstream: neither a
// compound ancestor's view nor, in a parallel state, its region's is used
// (probe testdata/conformance/fallback).
func TestNoAncestorFallback(t *testing.T) {
	r, w := kinds(t)
	wantRenders(t, r, w, map[string]string{
		"outer":                 "OUTER outer",
		"outer.inner.leaf":      "",
		"outer.with_view":       "OWN VIEW",
		"noview":                "",
		"par#par.r1.a|par.r2.b": "B par.r2.b",
		"par#par.r2.c|par.r1.a": "",
	})
}

func TestTransitionViewExtra(t *testing.T) {
	r, w := kinds(t)
	got, err := r.RenderView("list", w, map[string]any{transitionViewKey: "TV {{ world.n }} {{ state.path }}"})
	if err != nil || got != "TV 2 list" {
		t.Errorf("string: %q %v", got, err)
	}
	tv := &story.View{Kind: "elements", Elements: []*story.ViewElement{{Kind: "heading", Text: "H"}, {Kind: "prose", Text: "P"}}}
	got, err = r.RenderView("par#par.r1.a|par.r2.b", w, map[string]any{transitionViewKey: tv})
	if err != nil || got != "H\n\nP" {
		t.Errorf("view on a parallel state: %q %v", got, err)
	}
	// An empty transition view means none.
	if got := render(t, r, "outer", with(w)); got != "OUTER outer" {
		t.Errorf("%q", got)
	}
	if got, _ := r.RenderView("outer", w, map[string]any{transitionViewKey: ""}); got != "OUTER outer" {
		t.Errorf("empty: %q", got)
	}
}

// Upstream ⚠ cases and errors: each fails with a positioned *Error naming
// the state and the part, never a panic.
func TestRenderErrors(t *testing.T) {
	r, w := kinds(t)
	cases := map[string][]string{
		"ternary":      {"app.yaml:114:11", `state "ternary"`, "'}}' expected"},
		"unterminated": {"app.yaml:116:11", "expected tag elif or else or endif"},
		"bad_element":  {"app.yaml:120:9", "view[1] (prose)", "Filter 'nosuchfilter' does not exist"},
		"escape":       {"app.yaml:122:11", "outside the template roots"},
		"broken_file":  {"views/broken.pongo:2:17", "Unexpected EOF"},
		"missing_file": {"app.yaml:110:11", `view file "nope.pongo" not found`},
		// a when: that does not compile fails the view, as upstream's
		// render (conformance view-when-compile-error)
		"when_compile":      {"app.yaml:156:9", "view[1] (prose)", "map literal expressions are not allowed"},
		"when_item_compile": {"app.yaml:160:9", "view[0] (list).items[1]", `member access on forbidden root "state"`},
		"missing_layout":    {"app.yaml:112:11", `view file "nolayout.pongo" not found`},
		"nosuch":            {`state "nosuch"`, "no such state"},
		"par#par.r1.zz":     {`state "par.r1.zz"`, "no such state"},
	}
	for path, wants := range cases {
		out, err := r.RenderView(path, w, nil)
		if err == nil || out != "" {
			t.Errorf("%s: want an error, got %q, %v", path, out, err)
			continue
		}
		var ve *Error
		if !errors.As(err, &ve) {
			t.Errorf("%s: not a *view.Error: %T", path, err)
		}
		for _, want := range wants {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q lacks %q", path, err, want)
			}
		}
	}
	// The refused include is recognisable.
	_, err := r.RenderView("escape", w, nil)
	if !errors.Is(err, expr.ErrOutsideRoots) {
		t.Errorf("escape: %v is not ErrOutsideRoots", err)
	}
}

func TestConcurrentRenders(t *testing.T) {
	r, w := kinds(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for _, p := range []string{"extends", "list", "kv", "guards", "plain", "par#par.r1.a|par.r2.b"} {
				if _, err := r.RenderView(p, with(w, "n", i), nil); err != nil {
					t.Error(err)
				}
			}
		}(i)
	}
	wg.Wait()
}

func TestNilRootsInExtra(t *testing.T) {
	r, w := kinds(t)
	var nilMap map[string]any
	for _, extra := range []map[string]any{{"slots": nil}, {"slots": nilMap}, nil} {
		got, err := r.RenderView("plain", w, extra)
		if err != nil || got != "n=2 flag=True name=Ada path=plain slot=" {
			t.Errorf("extra %v: %q %v", extra, got, err)
		}
		if _, err := r.RenderView("guards", w, extra); err != nil {
			t.Errorf("guards with extra %v: %v", extra, err)
		}
	}
}

// A block name must be a pongo2 identifier; any other is refused, naming it.
func TestExtendsBlockNames(t *testing.T) {
	r, w := kinds(t)
	for name, ok := range map[string]bool{"body": true, "_b2": true, "B_x9": true, "a-b": false, "2x": false, "": false, "é": false, "a b": false, "a\n": false} {
		tv := &story.View{Kind: "extends", Extends: "page", Blocks: map[string][]*story.ViewElement{name: {{Kind: "prose", Text: "P"}}}}
		_, err := r.RenderView("list", w, map[string]any{transitionViewKey: tv})
		var e *Error
		refused := errors.As(err, &e) && e.What == "view.blocks."+name && strings.Contains(e.Msg, "must be a pongo2 identifier")
		if refused == ok {
			t.Errorf("block %q: err %v, want refused=%v", name, err, !ok)
		}
	}
}
