package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

// TestFoldScopeKeys: the folded key a world read names in each place of
// a story, as pkg/fold rewrites it: a declared key gets its story's
// prefix, a grand-child's lifted g__k its importer's, an undeclared key
// the first declaring importer's (else bare), a reserved key and the
// index form stay bare; a child imported twice has two places.
func TestFoldScopeKeys(t *testing.T) {
	child := `app: {id: c}
world:
  k: {type: string, default: ""}
imports:
  g: {source: ../g, entry: s, exits: {done: {to: s}}}
exits: {done: {description: d}}
root: s
states:
  s: {on: {}}
`
	dir := storytest.TempTree(t, map[string]string{
		".kitsoki/keep": "",
		"top/app.yaml": `app: {id: top}
world:
  k: {type: string, default: ""}
  up: {type: string, default: ""}
imports:
  a: {source: ../c, entry: s, exits: {done: {to: s}}}
  b: {source: ../c, entry: s, exits: {done: {to: s}}}
root: s
states:
  s: {on: {}}
`,
		"c/app.yaml": child,
		"g/app.yaml": `app: {id: g}
world:
  v: {type: string, default: ""}
exits: {done: {description: d}}
root: s
states:
  s: {on: {}}
`,
	})
	st, ds := story.Load(filepath.Join(dir, "top"), story.Options{LookupEnv: noEnv})
	if st == nil {
		t.Fatalf("no story: %v", ds)
	}
	scopes, complete := foldScopes(st)
	if !complete {
		t.Fatal("a tree of four imports not walked whole")
	}
	c := st.Imports["a"].Child
	if len(scopes[c]) != 2 || len(scopes[st.Imports["a"].Child.Imports["g"].Child]) != 2 {
		t.Fatalf("want two places of the child and of the grand-child, got %d", len(scopes[c]))
	}
	for _, tc := range []struct {
		read string
		want string // the folded key in each place of c, a then b
	}{
		{"world.k", "a__k b__k"},
		{"world.g__v", "a__g__v b__g__v"},
		{"world.up", "up up"},
		{"world.nowhere", "nowhere nowhere"},
		{"world.last_error", "last_error last_error"},
		{`world["k"]`, "k k"},
		{"world?.k", "k k"},
	} {
		rs := templateReads("{{ " + tc.read + " }}")
		if len(rs) != 1 {
			t.Fatalf("%s: reads %v", tc.read, rs)
		}
		var got []string
		for _, sc := range scopes[c] {
			got = append(got, sc.readKey(rs[0]))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: got %q, want %q", tc.read, got, tc.want)
		}
	}
}

// TestTaintPastFoldLimit: a tree whose places pass story.MaxFoldImports
// (each of 15 stories imports the next twice: refused by the fold) is not
// walked whole; the shell-injection taint then matches keys by name, so
// a read of a key a slot reaches in a place past the limit is still
// flagged.
func TestTaintPastFoldLimit(t *testing.T) {
	const n = 15
	files := map[string]string{".kitsoki/keep": ""}
	for i := range n {
		imports := ""
		if i+1 < n {
			imports = strings.ReplaceAll(`imports:
  a: {source: ../sNEXT, entry: k, world_in: {q: "{{ world.q }}"}, exits: {done: {to: k}}}
  b: {source: ../sNEXT, entry: k, world_in: {q: "{{ slots.t }}"}, exits: {done: {to: k}}}
`, "NEXT", itoa(i+1))
		}
		files["s"+itoa(i)+"/app.yaml"] = `app: {id: s}
hosts: [host.run]
world:
  q: {type: string, default: ""}
` + imports + `intents: {go: {slots: {t: {type: string}}}}
exits: {done: {description: d}}
root: k
states:
  k:
    on_enter:
      - invoke: host.run
        with: {cmd: "echo {{ world.q }}"}
    on:
      go: [{target: "@exit:done"}]
`
	}
	dir := storytest.TempTree(t, files)
	got := shellInjections(t, filepath.Join(dir, "s0"))
	flagged := map[string]bool{}
	for _, d := range got {
		flagged[filepath.Base(filepath.Dir(d.File))] = true
	}
	// every story but s0 has places where q is a slot (its importer's b
	// alias); by name, s0's own q is taken for one of those too (as every
	// read was before keys were scoped): a refused tree errs on the side
	// of a warning
	if len(flagged) != n {
		t.Errorf("flagged %d stories (%v), want all %d", len(flagged), flagged, n)
	}
}
