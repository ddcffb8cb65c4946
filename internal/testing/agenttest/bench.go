package agenttest

import (
	"context"
	"testing"

	"kitsoki/pkg/agent"
)

// BenchDispatch times reg.Dispatch(call) after one untimed call that warms
// the schema cache (and starts a plugin process or sidecar).
func BenchDispatch(b *testing.B, reg *agent.Registry, call agent.Call) {
	b.Helper()
	ctx := context.Background()
	if _, err := reg.Dispatch(ctx, call); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := reg.Dispatch(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
}
