package story

import (
	"strings"
	"testing"
)

// A key written as a mapping or a list refuses the story file at its place,
// as upstream's parser does ("[4:31] found an invalid key for this map",
// validate fails; probed on corpus/cloak's world:); ours read it as the key
// "[a b]" and said valid. An alias of a list used as a key is taken.
func TestComplexKeyIsASyntaxError(t *testing.T) {
	_, syn := decodeYAML([]byte("app: {id: broken}\nroot: start\nworld:\n  tags: {type: map, default: {[a, b]: 1}}\nstates:\n  start: {terminal: true}\n"))
	if syn == nil || syn.line != 4 || syn.col != 31 || !strings.HasPrefix(syn.msg, "a mapping or a list is used as a key; a key in this story file is a plain name") {
		t.Fatalf("got %+v", syn)
	}
	if _, syn := decodeYAML([]byte("a: &k [x]\nb: {*k : 1}\n")); syn != nil {
		t.Fatalf("an alias key: %+v", syn)
	}
}
