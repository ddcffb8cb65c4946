package story

import (
	"strings"
	"testing"

	"kitsoki/internal/yamlnode"
)

// A key written as a mapping or a list refuses the story file at its place,
// as upstream's parser does ("[4:31] found an invalid key for this map",
// validate fails; probed on corpus/cloak's world:); ours read it as the key
// "[a b]" and said valid. An alias of a list used as a key is taken.
func TestComplexKeyIsASyntaxError(t *testing.T) {
	_, syn := decodeYAML([]byte("app: {id: broken}\nroot: start\nworld:\n  tags: {type: map, default: {[a, b]: 1}}\nstates:\n  start: {terminal: true}\n"), yamlnode.MaxNodes)
	if syn == nil || syn.line != 4 || syn.col != 31 || !strings.HasPrefix(syn.msg, "a mapping or a list is used as a key; a key in this story file is a plain name") {
		t.Fatalf("got %+v", syn)
	}
	if _, syn := decodeYAML([]byte("a: &k [x]\nb: {*k : 1}\n"), yamlnode.MaxNodes); syn != nil {
		t.Fatalf("an alias key: %+v", syn)
	}
}

// A tab before a key of a flow mapping refuses the story file, as
// upstream's parser does (probe /tmp/hunt97/tab/app1: `load app: [20:34]
// tab character cannot use as a map key directly`), on both decoders.
func TestFlowKeyTabIsASyntaxError(t *testing.T) {
	for _, src := range []string{
		"app: {id: t,\tversion: 1}\nroot: a\nstates:\n  a: {view: a}\n",
		"app: {id: t, version: 1}\nroot: a\nstates:\n  a: {view: a}\n  b: {view: b, on: {go: [{target: a,\tset: {x: 1}}]}}\n",
	} {
		_, syn := decodeYAML([]byte(src), yamlnode.MaxNodes)
		if syn == nil || !strings.Contains(syn.msg, "tab character cannot use as a map key directly") {
			t.Errorf("%q: got %+v", src, syn)
		}
	}
	if _, syn := decodeYAML([]byte("app: {id: t, version: 1}\nroot: a\nstates:\n  a: {view: a,\n\ton: {}}\n"), yamlnode.MaxNodes); syn != nil {
		t.Errorf("a tab after a line break: %+v", syn)
	}
}
