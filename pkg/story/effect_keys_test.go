package story

import (
	"slices"
	"testing"
)

// TestEffectWrittenKeys: an effect's Written set holds the keys it was
// written with, empty values included, and is the effect's own value.
func TestEffectWrittenKeys(t *testing.T) {
	st, ds := LoadSource("app.yaml", []byte(`app: { id: k }
root: a
states:
  a:
    on_enter:
      - { say: "", set: { } }
      - { target: a }
      -
`), Options{})
	if st == nil {
		t.Fatalf("no story: %v", ds)
	}
	effs := st.State("a").OnEnter
	if len(effs) != 3 {
		t.Fatalf("%d effects", len(effs))
	}
	if got := keyNames(effs[0].Written); !slices.Equal(got, []string{"set", "say"}) {
		t.Errorf("first effect wrote %v, want [set say]", got)
	}
	if !effs[1].Written.Has("target") || effs[1].Written.Has("set") {
		t.Errorf("second effect: %v", keyNames(effs[1].Written))
	}
	if effs[2].Written != 0 {
		t.Errorf("the empty effect wrote %v", keyNames(effs[2].Written))
	}
	c := *effs[1]
	c.Written = c.Written.With("say")
	if effs[1].Written.Has("say") {
		t.Error("a copy's change reached the parsed effect")
	}
	if keyNames(EffectKeysOf("set", "nosuch"))[0] != "set" || EffectKeysOf("nosuch") != 0 || EffectKeysOf().Has("nosuch") {
		t.Error("a name that is not an effect key is a member")
	}
}

// keyNames is the keys in k, in the effect format's order.
func keyNames(k EffectKeys) []string {
	var out []string
	for i, n := range effectKeys {
		if k&(1<<uint(i)) != 0 {
			out = append(out, n)
		}
	}
	return out
}
