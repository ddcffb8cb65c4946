package fold

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// diamond writes a story whose import tree doubles at each of depth
// levels: c<i> imports c<i+1> twice (aliases l and r), so a handful of
// small files fold into 2^depth copies of the last child.
func diamond(t *testing.T, depth int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range depth {
		var imports string
		if i < depth-1 {
			imports = fmt.Sprintf("imports:\n  l: { source: ../c%d, entry: idle }\n  r: { source: ../c%d, entry: idle }\n", i+1, i+1)
		}
		write(t, filepath.Join(dir, fmt.Sprintf("c%d", i), "app.yaml"), fmt.Sprintf("app: { id: c%d, version: 0.1.0 }\n%sroot: idle\nstates:\n  idle: { terminal: true }\n", i, imports))
	}
	write(t, filepath.Join(dir, "app.yaml"), "app: { id: top, version: 0.1.0 }\nimports:\n  c: { source: ./c0, entry: idle }\nroot: start\nstates:\n  start: { terminal: true }\n")
	return dir
}

// loadAnyway loads the story at dir past its load errors (validate
// reports the same limits; the fold must hold on its own).
func loadAnyway(t testing.TB, dir string) *story.Story {
	t.Helper()
	st, _ := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv, Trees: storyload.Trees()})
	if st == nil {
		t.Fatal("no story")
	}
	return st
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestImportDiamondIsBounded: an import tree that multiplies (each child
// imported twice, 15 levels: 32,767 imports from 16 small files) is a
// positioned fold error naming the limit, not memory and time doubling
// with every level (at 24 levels, gigabytes and hours).
func TestImportDiamondIsBounded(t *testing.T) {
	st := loadAnyway(t, diamond(t, 15))
	_, err := New(st, Options{})
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("New = %v, want a *fold.Error for the import tree's size", err)
	}
	msg := err.Error()
	for _, want := range []string{"app.yaml:", "imports", fmt.Sprint(story.MaxFoldImports), "import"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not say %q:\n%s", want, msg)
		}
	}
	if len(fe.Problems) != 1 {
		t.Errorf("%d problems, want the one limit reported once:\n%s", len(fe.Problems), msg)
	}
}

// TestImportDiamondUnderTheLimitFolds: the same shape under the limit
// (10 levels, 1,023 imports) folds as before.
func TestImportDiamondUnderTheLimitFolds(t *testing.T) {
	st := storyload.Load(t, diamond(t, 10), story.Options{})
	f, err := New(st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(f.Paths()), 1+2*(1<<10-1); got != want {
		t.Errorf("%d folded states, want %d", got, want)
	}
}

// TestImportedStatesAreBounded: one large child imported by ten aliases
// copies its states ten times; past the fold's limit (Options.MaxImportedStates:
// a small one here; story.MaxFoldImportedStates in production, pinned by
// TestImportedStatesLimitDefault) the fold is one positioned error at the
// import that crossed it.
func TestImportedStatesAreBounded(t *testing.T) {
	const limit = 2_500
	dir := t.TempDir()
	n := limit/10 + 1
	var b strings.Builder
	b.WriteString("app: { id: big, version: 0.1.0 }\nroot: s0\nstates:\n")
	for i := range n {
		fmt.Fprintf(&b, "  s%d: { terminal: true }\n", i)
	}
	write(t, filepath.Join(dir, "big", "app.yaml"), b.String())
	b.Reset()
	b.WriteString("app: { id: top, version: 0.1.0 }\nimports:\n")
	for i := range 10 {
		fmt.Fprintf(&b, "  a%d: { source: ./big, entry: s0 }\n", i)
	}
	b.WriteString("root: start\nstates:\n  start: { terminal: true }\n")
	write(t, filepath.Join(dir, "app.yaml"), b.String())
	st := loadAnyway(t, dir)
	_, err := New(st, Options{MaxImportedStates: limit})
	if err == nil || !strings.Contains(err.Error(), "folds more than 2500 states") || !strings.Contains(err.Error(), "imports.a9") {
		t.Fatalf("New = %v, want the states limit at imports.a9", err)
	}
	if _, err := New(st, Options{}); err != nil {
		t.Errorf("the production limit refuses 2,510 imported states: %v", err)
	}
}

// TestImportedStatesLimitDefault: options naming no limit (the engine's,
// validate's) fold at most story.MaxFoldImportedStates imported states,
// the limit pkg/lint's imports rule reports with the same message.
func TestImportedStatesLimitDefault(t *testing.T) {
	if got := (Options{}).ImportedStatesLimit(); got != story.MaxFoldImportedStates {
		t.Errorf("the zero options fold %d imported states, want story.MaxFoldImportedStates", got)
	}
	if story.FoldStatesMessage("x") != story.FoldStatesMessageOver("x", story.MaxFoldImportedStates) {
		t.Error("the production message is not the limit's")
	}
	if got := (Options{MaxImportedStates: 9}).ImportedStatesLimit(); got != 9 {
		t.Errorf("MaxImportedStates 9: %d", got)
	}
}

// overrideDiamond: a tree of depth levels each importing the next twice
// (2^(depth-1) copies of x) where x imports y with a state override that
// aliases nest levels deep (at 6, 531,000 nodes; at 4, 8,300). The fold
// parses an override again for each copy: 256 copies of 531,000 nodes took
// 6 GB and did not end in 100 s (graph).
func overrideDiamond(t *testing.T, depth, levels int) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "y", "app.yaml"), "app: { id: y, version: 0.1.0 }\nworld:\n  x: { type: list, default: [] }\nroot: a\nstates:\n  a: { terminal: true }\n")
	var b strings.Builder
	b.WriteString("app: { id: x, version: 0.1.0 }\nimports:\n  y:\n    source: ../y\n    overrides:\n      states:\n        a:\n          terminal: true\n          on_enter:\n            - set: { x: &m0 [a, b, c, d, e, f, g, h, i] }\n")
	for i := 1; i < levels; i++ {
		p := fmt.Sprintf("*m%d", i-1)
		fmt.Fprintf(&b, "            - set: { x: &m%d [%s] }\n", i, strings.Repeat(p+", ", 8)+p)
	}
	b.WriteString("root: y\nstates: {}\n")
	write(t, filepath.Join(dir, "x", "app.yaml"), b.String())
	for i := range depth {
		src := fmt.Sprintf("../m%d", i+1)
		if i == depth-1 {
			src = "../x"
		}
		write(t, filepath.Join(dir, fmt.Sprintf("m%d", i), "app.yaml"), fmt.Sprintf("app: { id: m%d, version: 0.1.0 }\nimports:\n  a: { source: %s }\n  b: { source: %s }\nroot: a\nstates: {}\n", i, src, src))
	}
	write(t, filepath.Join(dir, "app.yaml"), "app: { id: top, version: 0.1.0 }\nimports:\n  a: { source: m0 }\nroot: a\nstates: {}\n")
	return dir
}

// TestOverrideParsesAreBounded: the fold's parses of import overrides
// share one budget, so a tree copying a large override many times is a
// fold error naming it (the loader's own walk of the file read it once);
// two copies fold. The budget here is a small one (Options.MaxOverrideNodes:
// 512 copies of 8,300 nodes against 20,000); TestOverrideNodesLimitDefault
// pins the production one, which validate predicts at the top import.
func TestOverrideParsesAreBounded(t *testing.T) {
	dir := overrideDiamond(t, 10, 4)
	_, err := New(loadAnyway(t, dir), Options{MaxOverrideNodes: 20_000})
	if err == nil || !strings.Contains(err.Error(), "the 20000 nodes the import overrides of this story may parse together") {
		t.Fatalf("err = %v", err)
	}
	_, ds := lint.Load(dir, story.Options{LookupEnv: storyload.NoEnv})
	var said bool
	for _, d := range ds {
		said = said || (d.File == filepath.Join(dir, "app.yaml") && strings.Contains(d.Message, "parses more than 2000000 YAML nodes of import overrides"))
	}
	if !said {
		t.Errorf("validate does not say so at app.yaml: %v", ds)
	}
	if _, err := New(loadAnyway(t, overrideDiamond(t, 1, 4)), Options{MaxOverrideNodes: 20_000}); err != nil {
		t.Errorf("two copies: %v", err)
	}
}

// TestOverrideNodesLimitDefault: options naming no limit (the engine's,
// validate's) parse at most yamlnode.MaxNodes override nodes, the limit
// pkg/lint's imports rule predicts.
func TestOverrideNodesLimitDefault(t *testing.T) {
	if got := (Options{}).OverrideNodesLimit(); got != yamlnode.MaxNodes {
		t.Errorf("the zero options parse %d override nodes, want yamlnode.MaxNodes", got)
	}
	if got := (Options{MaxOverrideNodes: 9}).OverrideNodesLimit(); got != 9 {
		t.Errorf("MaxOverrideNodes 9: %d", got)
	}
}

// TestUnreadImportIsPastTheStates: an import the loader left unread, the
// children before it holding more states than a fold copies
// (story.Import.Unread), makes the fold the states limit's one error at
// that import, not a child that failed to load.
func TestUnreadImportIsPastTheStates(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "kid", "app.yaml"), "app: { id: kid, version: 0.1.0 }\nroot: s0\nstates:\n  s0: { terminal: true }\n")
	write(t, filepath.Join(dir, "app.yaml"), "app: { id: top, version: 0.1.0 }\nimports:\n  a: { source: ./kid, entry: s0 }\n  b: { source: ./kid, entry: s0 }\n  c: { source: ./kid, entry: s0 }\nroot: start\nstates:\n  start: { terminal: true }\n")
	st := loadAnyway(t, dir)
	for _, alias := range []string{"b", "c"} { // as the loader leaves them
		st.Imports[alias].Child, st.Imports[alias].Unread = nil, true
	}
	_, err := New(st, Options{})
	if err == nil || !strings.HasSuffix(err.Error(), "imports.b: "+story.FoldStatesMessage("./kid")) {
		t.Fatalf("New = %v, want the states limit at imports.b", err)
	}
	if !strings.Contains(err.Error(), "(1 problem)") {
		t.Errorf("New = %v, want one error, at imports.b", err)
	}
}
