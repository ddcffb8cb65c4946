package flowtest

import (
	"testing"

	"kitsoki/pkg/diag"
)

// The merge keys the existing engine's fixture decoder refuses (each
// stops its whole run) are fixture errors here, at the key the decoder
// names (docs/compat/flow-format.md "Merge keys"; the fixtures it runs are
// in the conformance golden fixture-merge-keys).
func TestFixtureMergeKeyRefusals(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line, col int
		text      string
	}{
		{"turn key merged and written", "test_kind: flow\nturns:\n  - &t {intent: {name: go}}\n  - <<: *t\n    intent: {name: back}\n",
			5, 5, `key "intent" is given twice through a merge key`},
		{"turn key written then merged", "test_kind: flow\nturns:\n  - intent: {name: go}\n    <<: {intent: {name: back}}\n",
			4, 10, `key "intent" is given twice through a merge key`},
		{"fixture key merged and written", "<<: {test_kind: flow, initial_state: a}\ninitial_state: b\nturns: []\n",
			2, 1, `key "initial_state" is given twice`},
		{"list merged into a turn", "test_kind: flow\nturns:\n  - <<: [{intent: {name: go}}]\n",
			3, 9, "sequence was used where mapping is expected"},
		{"list items sharing a key", "test_kind: flow\ninitial_world:\n  <<: [{n: 1}, {n: 2}]\nturns: []\n",
			3, 17, `key "n" is in two mappings of the merged list`},
		{"list items sharing a key, one level down", "test_kind: flow\ninitial_world:\n  <<: {<<: [{n: 1}, {n: 2}]}\nturns: []\n",
			3, 22, `key "n" is in two mappings of the merged list`},
		{"two merge keys", "test_kind: flow\ninitial_world:\n  <<: {n: 1}\n  <<: {s: x}\nturns: []\n",
			4, 3, "a second merge key"},
		{"null merged", "test_kind: flow\nworld_override_holder: 1\ninitial_world:\n  <<: ~\nturns: []\n",
			4, 7, "this is null"},
		{"scalar merged in a stub", "test_kind: flow\nhost_handlers:\n  h: {<<: 5}\nturns: []\n",
			3, 11, `this is the scalar "5"`},
		{"two merge keys in a value", "test_kind: flow\ninitial_world:\n  t: {<<: {a: 1}, <<: {b: 2}}\nturns: []\n",
			3, 6, "a second merge key"},
		{"scalar merged in a value", "test_kind: flow\ninitial_world:\n  t: {a: 1, <<: [{b: 1}, 5]}\nturns: []\n",
			3, 6, "this is the scalar 5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, ds := parseOne(t, c.src)
			if !hasDiag(ds, diag.Error, c.line, c.col, c.text) {
				t.Errorf("want an error at %d:%d containing %q; got %v", c.line, c.col, c.text, ds)
			}
		})
	}
}

// What a merge key brings is read as written there: a later key replaces
// an earlier one in a map (merged or written), a record takes the merged
// keys as its own, and a key that only holds an anchor is not warned of.
func TestFixtureMergeKeysRead(t *testing.T) {
	src := `x: &base {test_kind: flow, initial_state: idle}
<<: *base
initial_world:
  n: 1
  <<: [{n: 7}, {s: m}]
  t: {a: 2, <<: {a: 1}}
turns:
  - <<: {intent: {name: go, slots: {<<: {who: bob}}}}
    expect_world: {<<: {n: 7}}
host_handlers:
  <<: {h: {by_call: {<<: {c1: {data: {k: v}}}}}}
`
	fxs, ds := parseOne(t, src)
	for _, d := range ds {
		t.Errorf("unexpected diagnostic: %v", d)
	}
	if len(fxs) != 1 {
		t.Fatalf("got %d fixtures, want the merged test_kind's one", len(fxs))
	}
	fx := fxs[0]
	if fx.InitialState != "idle" {
		t.Errorf("initial_state %q, want idle", fx.InitialState)
	}
	world := map[string]any{}
	for _, kv := range fx.InitialWorld {
		world[kv.Key] = kv.Value
	}
	if world["n"] != int64(7) || world["s"] != "m" || len(world) != 3 {
		t.Errorf("initial_world %v, want n 7 (the later, merged), s m, t", world)
	}
	if tv, _ := world["t"].(map[string]any); tv["a"] != int64(1) {
		t.Errorf("initial_world.t %v, want a 1 (the later, merged)", world["t"])
	}
	if len(fx.Turns) != 1 || fx.Turns[0].Intent == nil || fx.Turns[0].Intent.Name != "go" {
		t.Fatalf("turns %+v, want one turn with the merged intent go", fx.Turns)
	}
	if sl := fx.Turns[0].Intent.Slots; len(sl) != 1 || sl[0].Key != "who" || sl[0].Value != "bob" {
		t.Errorf("slots %+v, want who: bob", sl)
	}
	if ew := fx.Turns[0].ExpectWorld; len(ew) != 1 || ew[0].Key != "n" {
		t.Errorf("expect_world %+v, want the merged n", ew)
	}
	if len(fx.HostHandlers) != 1 || fx.HostHandlers[0].Name != "h" || fx.HostHandlers[0].ByCall["c1"] == nil {
		t.Errorf("host_handlers %+v, want h with by_call c1", fx.HostHandlers)
	}
}

// A key written twice in a mapping inside a value is refused, as the
// existing engine's YAML parser refuses it at any depth ("mapping key
// already defined"), where a merged key may be replaced.
func TestFixtureValueDuplicateKey(t *testing.T) {
	for line, src := range map[int]string{
		3: "test_kind: flow\ninitial_world:\n  t: {a: 1, a: 2}\nturns: []\n",
		4: "test_kind: flow\nturns:\n  - intent: {name: go}\n    expect_world: {t: [{a: 1, a: 2}]}\n",
	} {
		_, ds := parseOne(t, src)
		if !hasDiag(ds, diag.Error, line, 0, `key "a" appears twice in one mapping`) {
			t.Errorf("%q: want the duplicate key refused; got %v", src, ds)
		}
	}
	if _, ds := parseOne(t, "test_kind: flow\ninitial_world:\n  t: {a: 1, <<: {a: 2}}\nturns: []\n"); len(ds) > 0 {
		t.Errorf("a merged key replacing a written one: %v", ds)
	}
}

// A byte-order mark at the start of a fixture document is read as upstream's
// parser reads it: part of the first key (a warning), or, before anything
// else, a refusal (conformance fixture-bom runs the first two).
func TestFixtureBOM(t *testing.T) {
	fxs, ds := parseOne(t, "\ufefftest_kind: flow\nturns: []\n---\ntest_kind: flow\nturns: []\n")
	if len(fxs) != 1 || !hasDiag(ds, diag.Warning, 1, 1, "byte-order mark") {
		t.Errorf("a mark before test_kind: %d fixtures (want the second document's only), %v", len(fxs), ds)
	}
	fxs, _ = parseOne(t, "\ufeffinitial_state: a\ntest_kind: flow\nturns: []\n")
	if len(fxs) != 1 || fxs[0].InitialState != "" {
		t.Errorf("a mark before initial_state: want a flow with no initial_state, got %+v", fxs)
	}
	for _, src := range []string{"\ufeff# c\ntest_kind: flow\nturns: []\n", "\ufeff---\ntest_kind: flow\nturns: []\n", "\ufeff{test_kind: flow}\n"} {
		if _, ds := parseOne(t, src); !slicesHasError(ds) {
			t.Errorf("%q: want the file refused, got %v", src, ds)
		}
	}
	if fxs, _ := parseOne(t, "test_kind: flow\nturns: []\n---\n\ufefftest_kind: flow\nturns: []\n"); len(fxs) != 1 {
		t.Errorf("a mark at the start of a later document: %d fixtures, want the first document's only", len(fxs))
	}
}

func slicesHasError(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}
