package allocs

import "testing"

var sink []byte

// PerRun still sees an allocation f makes on every call, and none where f
// makes none.
func TestPerRun(t *testing.T) {
	if n := PerRun(10, func() { sink = make([]byte, 64) }); n != 1 {
		t.Errorf("an allocating call counted %v allocations, want 1", n)
	}
	if n := PerRun(10, func() { sink = sink[:0] }); n != 0 {
		t.Errorf("a call that allocates nothing counted %v", n)
	}
}
