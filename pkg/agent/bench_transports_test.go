package agent_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// BenchmarkDispatch/subprocess and BenchmarkDispatch/mcp_http: the reference
// call through the real echoagent program and a real MCP server on loopback,
// with schema validation on. Aims on 2 cores: subprocess < 150 µs at p50,
// mcp_http < 1 ms at p50 (BenchmarkDispatchP50 reports the median).
func init() {
	benchCases = append(benchCases,
		benchCase{"subprocess", benchSubprocess},
		benchCase{"mcp_http", benchMCPHTTP},
	)
}

func discardSink() agent.Sink { return agent.SinkFunc(func(agent.Event) error { return nil }) }

func benchSubprocess(b *testing.B) *agenttest.Fixture {
	bin := agent.BuildTestPlugin(b, "echoagent")
	return agenttest.NewFixture(b, map[string]*story.AgentPlugin{agenttest.ReferenceAlias: {
		Alias: agenttest.ReferenceAlias, Plugin: story.PluginSubprocess, Command: bin,
	}}, agent.RegistryOptions{Sink: discardSink()})
}

func benchMCPHTTP(b *testing.B) *agenttest.Fixture {
	srv := mcpecho.New(mcpecho.Options{})
	ts := httptest.NewServer(srv)
	b.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	fx := agenttest.NewFixture(b, map[string]*story.AgentPlugin{agenttest.ReferenceAlias: {
		Alias: agenttest.ReferenceAlias, Plugin: story.PluginMCPHTTP, Endpoint: ts.URL + "/mcp",
	}}, agent.RegistryOptions{Sink: discardSink()})
	b.Cleanup(srv.Stop)
	return fx
}

// BenchmarkDispatchP50 reports the median latency of one Dispatch
// ("p50-ns") beside the mean ns/op, for the out-of-process transports.
func BenchmarkDispatchP50(b *testing.B) {
	for _, bc := range []benchCase{{"subprocess", benchSubprocess}, {"mcp_http", benchMCPHTTP}} {
		b.Run(bc.name, func(b *testing.B) {
			fx := bc.setup(b)
			call := agenttest.ReferenceCall()
			ctx := context.Background()
			if _, err := fx.Registry.Dispatch(ctx, call); err != nil {
				b.Fatal(err)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := fx.Registry.Dispatch(ctx, call); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
		})
	}
}
