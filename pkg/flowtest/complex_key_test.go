package flowtest

import (
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
	"kitsoki/pkg/diag"
)

// A key written as a mapping or a list refuses a flow fixture file, any
// document of it, as upstream's parser does ("[10:10] found an invalid key
// for this map", the whole run stopped; probed on the oracle with
// corpus/cloak's winning flow): ours read it as the text "[q]". An alias
// of a list used as a key is taken, as upstream takes it.
func TestFixtureComplexKey(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line, col int
	}{
		{"in initial_world", "test_kind: flow\ninitial_world:\n  x: {[q]: 1}\nturns: []\n", 3, 7},
		{"block form", "test_kind: flow\ninitial_world:\n  x:\n    ? {a: 1}\n    : 1\nturns: []\n", 4, 7},
		{"in a list, under a key the fixture does not read", "test_kind: flow\nnotes: [{[q]: 1}]\nturns: []\n", 2, 10},
		{"in a document of another kind", "test_kind: intents\nx: {{}: 1}\n", 2, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, ds := parseOne(t, c.src)
			if !hasDiag(ds, diag.Error, c.line, c.col, "a mapping or a list is used as a key; a key in this fixture is a plain name") {
				t.Errorf("want the refusal at %d:%d; got %v", c.line, c.col, ds)
			}
		})
	}
	fxs, ds := parseOne(t, "test_kind: flow\ninitial_world:\n  k: &k [q]\n  x: {*k : 1}\nturns: []\n")
	if len(ds) != 0 || len(fxs) != 1 {
		t.Fatalf("an alias key: %v", ds)
	}
}

// A recording or an intent fixture with such a key is refused at its
// place, never with yaml.v3's "invalid map key: []interface {}{...}" or
// "runtime error: hash of unhashable type" (through a merge).
func TestRecordingAndIntentsComplexKey(t *testing.T) {
	for _, c := range []struct {
		name, want string
		parse      func() error
	}{
		{"recording slot", `recording "r.yaml": line 5, column 34: a mapping or a list is used as a key; a key in this recording`, func() error {
			_, err := parseRecording("r.yaml", []byte("kind: recording\nentries:\n- state: s\n  input: hi\n  intent: {name: go, slots: {a: {[x]: 1}}}\n"))
			return err
		}},
		{"recording, through a merge", `recording "r.yaml": line 2, column 18: a mapping or a list`, func() error {
			_, err := parseRecording("r.yaml", []byte("kind: recording\nentries: [{<<: , {}: , [x]: }]\n"))
			return err
		}},
		{"intent fixture slot", "i.yaml:6:34: intent fixture: a mapping or a list is used as a key; a key in this intent fixture", func() error {
			_, err := ParseIntents("i.yaml", []byte("test_kind: intents\nstate: s\nfixtures:\n- id: a\n  inputs: [hi]\n  intent: {name: go, slots: {a: {[x]: 1}}}\n"))
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.parse()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, c.want)
			}
			if n := gotype.Named(err.Error(), nil); n != "" {
				t.Fatalf("the message names the Go type %q: %v", n, err)
			}
		})
	}
}
