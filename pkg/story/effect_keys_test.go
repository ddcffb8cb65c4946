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
	if got := effs[0].Written.Names(); !slices.Equal(got, []string{"set", "say"}) {
		t.Errorf("first effect wrote %v, want [set say]", got)
	}
	if !effs[1].Written.Has("target") || effs[1].Written.Has("set") {
		t.Errorf("second effect: %v", effs[1].Written.Names())
	}
	if effs[2].Written != 0 {
		t.Errorf("the empty effect wrote %v", effs[2].Written.Names())
	}
	c := *effs[1]
	c.Written = c.Written.With("say")
	if effs[1].Written.Has("say") {
		t.Error("a copy's change reached the parsed effect")
	}
	if EffectKeysOf("set", "nosuch").Names()[0] != "set" || EffectKeysOf("nosuch") != 0 || EffectKeysOf().Has("nosuch") {
		t.Error("a name that is not an effect key is a member")
	}
}
