package mcpserve

import (
	"runtime"
	"strings"
	"testing"
)

// TestCheckInputBoundsMemory: tool arguments of millions of empty {} (a
// stdio line may hold 16 MiB: some 800 MB decoded) are refused before they
// are decoded, allocating a small multiple of their size.
func TestCheckInputBoundsMemory(t *testing.T) {
	tool := &Tool{Name: "kitsoki_s_ask", Alias: "agent.a", Verb: "ask"}
	// The same rule at a floor of 16 MiB, not 256 MiB: a tenth of the
	// arguments (200,000 empty {}) crosses it.
	const floor = 16 << 20
	raw := []byte(`{"prompt":"x","args":{"a":[` + strings.TrimSuffix(strings.Repeat("{},", 200_000), ",") + `]}}`)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, err := tool.checkInput(raw, floor)
	runtime.ReadMemStats(&after)
	spent := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes, allocated %d", len(raw), spent)
	if err == nil || !strings.Contains(err.Error(), "once read") {
		t.Errorf("err = %v, want the arguments refused", err)
	}
	if spent > 4*uint64(len(raw)) {
		t.Errorf("checking %d bytes of arguments allocated %d bytes, over 4 times their size", len(raw), spent)
	}
	if _, args, _, err := tool.checkInput([]byte(`{"prompt":"x","args":{"a":[{},{}]}}`), 0); err != nil || len(args) != 1 {
		t.Errorf("small arguments: %v %v", args, err)
	}
}

// TestCheckInputNumberOutOfRange: an argument object holding a number
// past float64 (1e400) is refused naming the number, not
// as if it were no object (found by FuzzCheckInput).
func TestCheckInputNumberOutOfRange(t *testing.T) {
	tool := &Tool{Name: "kitsoki_s_ask", Alias: "agent.a", Verb: "ask"}
	_, _, _, err := tool.checkInput([]byte(`{"prompt":"x","args":{"a":[1,-1e400]}}`), 0)
	if err == nil || !strings.Contains(err.Error(), "the number -1e400, out of range") || !strings.Contains(err.Error(), "as a string") {
		t.Errorf("err = %v, want the number named", err)
	}
}
