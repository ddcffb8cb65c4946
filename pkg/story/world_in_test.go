package story

import (
	"strings"
	"testing"
)

// world_in values are held as text, as upstream holds them: a scalar is
// the text of the value it reads as, a template stays as written, and a
// list or mapping (upstream refuses to load the story) is an error naming
// the key.
func TestWorldInIsText(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: p}
root: s
world: {n: {type: int, default: 0}}
imports:
  kid:
    source: ./kid
    world_in: {a: 2.50, b: 0x1F, c: FALSE, d: ~, e: 1e3, f: "{{ world.n }}", g: 12345678901234567890}
states: {s: {}}
`)
	write(t, dir, "kid/app.yaml", `app: {id: k}
root: a
world:
  a: {type: any}
  b: {type: any}
  c: {type: any}
  d: {type: any}
  e: {type: any}
  f: {type: any}
  g: {type: any}
states: {a: {}}
`)
	st, ds := Load(dir, Options{})
	if strings.Contains(render(ds), "error") {
		t.Fatalf("diagnostics:\n%s", render(ds))
	}
	want := map[string]string{"a": "2.5", "b": "31", "c": "false", "d": "", "e": "1e3", "f": "{{ world.n }}", "g": "12345678901234567890"}
	for _, kv := range st.Imports["kid"].WorldIn {
		if s, ok := kv.Value.(string); !ok || s != want[kv.Key] {
			t.Errorf("world_in.%s = %#v, want %q", kv.Key, kv.Value, want[kv.Key])
		}
	}
	write(t, dir, "app.yaml", `app: {id: p}
root: s
imports:
  kid:
    source: ./kid
    world_in: {a: [1, two], b: {k: 1}, c: ok}
states: {s: {}}
`)
	_, ds = Load(dir, Options{})
	out := render(ds)
	for _, w := range []string{"imports.kid: world_in.a: a list cannot be projected", "imports.kid: world_in.b: a mapping cannot be projected"} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in\n%s", w, out)
		}
	}
}
