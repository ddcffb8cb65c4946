package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// Rooted names (world.x, slots.x, state, run.story_dir) raise neither
// bare-name nor run-root; a bare name and run.turn each raise theirs.
func TestBareNameAndRunRootWarnings(t *testing.T) {
	dir := t.TempDir()
	src := `app: { id: b, version: 0.1.0 }
world:
  s: { type: string, default: "" }
intents: { go: { slots: { x: { type: string } } }, bad: {} }
root: r
states:
  r:
    on:
      go:
        - when: "world.s == '' && slots.x != nil"
          target: .
          effects:
            - set: { s: "{{ world.s }}{{ slots.x }}{{ state }}{{ run.story_dir }}" }
      bad:
        - target: .
          effects:
            - set: { s: "{{ nope }}{{ run.turn }}" }
`
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds := Load(dir, story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == "bare-name" || d.Rule == "run-root" {
			got = append(got, d.Rule+": "+d.Message)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0]+got[1], `names "nope"`) || !strings.Contains(got[0]+got[1], "reads run.turn") {
		t.Errorf("warnings:\n%s", strings.Join(got, "\n"))
	}
}

// TestBareNamesReuseTheCheckCompile: the bare-name pass reads the guard
// and template programs the check's other passes compile (compile_cache.go)
// instead of compiling each again, and still reports from them.
func TestBareNamesReuseTheCheckCompile(t *testing.T) {
	src := `app: { id: b }
world:
  s: { type: string, default: "" }
intents: { go: {} }
root: r
states:
  r:
    on:
      go:
        - when: "nope == 1"
          target: .
          effects:
            - set: { s: "{{ gone }}" }
`
	st, _ := story.LoadSource("app.yaml", []byte(src), story.Options{})
	if st == nil {
		t.Fatal("nil story")
	}
	rep := &yamlnode.Reporter{}
	c := &checker{st: st, rep: rep, src: &sources{read: st.Source}, files: map[string]fileAt{}, cc: map[compileKey]error{}}
	checkBareNames(c)
	for _, k := range []compileKey{{compiledGuard, "nope == 1"}, {compiledTemplate, "{{ gone }}"}} {
		if _, ok := c.cc[k]; !ok || c.built[k] == nil {
			t.Errorf("%v was not compiled through the check's cache", k)
		}
	}
	out := render(rep.Diags)
	for _, want := range []string{`when "nope == 1" names "nope"`, `set s "{{ gone }}" names "gone"`} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}

// TestSetTypeReusesTheCheckCompile: the set-type pass reads the templates
// the check compiles, and compiles none for a key of type string, which
// any template's text fits.
func TestSetTypeReusesTheCheckCompile(t *testing.T) {
	src := `app: { id: b }
world:
  n: { type: int, default: 0 }
  s: { type: string, default: "" }
intents: { go: {} }
root: r
states:
  r:
    on:
      go:
        - target: .
          effects:
            - set: { n: "n{{ world.n }}", s: "s{{ world.n }}" }
`
	st, _ := story.LoadSource("app.yaml", []byte(src), story.Options{})
	if st == nil {
		t.Fatal("nil story")
	}
	rep := &yamlnode.Reporter{}
	c := &checker{st: st, rep: rep, src: &sources{read: st.Source}, files: map[string]fileAt{}, cc: map[compileKey]error{}}
	checkSetTypes(c)
	if _, ok := c.cc[compileKey{compiledTemplate, "n{{ world.n }}"}]; !ok {
		t.Error("the int key's template was not compiled through the check's cache")
	}
	if _, ok := c.cc[compileKey{compiledTemplate, "s{{ world.n }}"}]; ok {
		t.Error("the string key's template was compiled")
	}
	if out := render(rep.Diags); !strings.Contains(out, `set n: "n{{ world.n }}" renders text, not an int`) || strings.Contains(out, "set s:") {
		t.Errorf("want the int key's finding alone:\n%s", out)
	}
}
