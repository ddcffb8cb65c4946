package localllm_test

import (
	"context"
	"os"
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/story"
)

// BenchmarkLocalLLM measures one Dispatch of a grammar-constrained decide
// through builtin.local_llm (schema validation on, discarding sink):
//
//	endpoint: against a loopback chat stand-in (the transport's own cost:
//	          request building, grammar subset check, HTTP, parsing, meta);
//	managed:  against the warm managed sidecar (the llama-server stand-in
//	          fetched from a loopback pins overlay, then reused);
//
// and BenchmarkLocalLLMWarmStart one registry whose first call starts the
// sidecar from a warm cache (no download), then closes it.
func BenchmarkLocalLLM(b *testing.B) {
	discard := local(agent.RegistryOptions{Sink: agent.SinkFunc(func(agent.Event) error { return nil })})
	call := agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "approve?", SchemaPath: "schemas/verdict.json"}
	b.Run("endpoint", func(b *testing.B) {
		ep := newChatEndpoint(b).URL
		p := &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Endpoint: ep, Model: "m", Grammar: true}
		fx := agenttest.NewFixture(b, map[string]*story.AgentPlugin{"agent.local": p}, discard)
		fx.WriteSchema("verdict.json", verdictSchema)
		agenttest.BenchDispatch(b, fx.Registry, call)
	})
	b.Run("managed", func(b *testing.B) {
		quietDisclosure(b)
		a := localllm.NewManagedLLMArtifacts(b)
		b.Setenv("KITSOKI_PINS", a.Pins)
		b.Setenv("KITSOKI_CACHE_DIR", b.TempDir())
		b.Setenv("STANDIN_LOAD_MS", "0")
		p := &story.AgentPlugin{Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model, Grammar: true}
		fx := agenttest.NewFixture(b, map[string]*story.AgentPlugin{"agent.local": p}, discard)
		fx.WriteSchema("verdict.json", verdictSchema)
		agenttest.BenchDispatch(b, fx.Registry, call)
	})
}

func BenchmarkLocalLLMWarmStart(b *testing.B) {
	quietDisclosure(b)
	a := localllm.NewManagedLLMArtifacts(b)
	b.Setenv("KITSOKI_PINS", a.Pins)
	b.Setenv("KITSOKI_CACHE_DIR", b.TempDir())
	b.Setenv("STANDIN_LOAD_MS", "0")
	plugins := map[string]*story.AgentPlugin{"agent.local": {Alias: "agent.local", Plugin: story.PluginLocalLLM, Model: a.Model, Grammar: true}}
	call := agent.Call{Alias: "agent.local", Verb: "decide", Prompt: "approve?", SchemaPath: "schemas/verdict.json"}
	dispatchOnce := func() {
		fx := agenttest.NewFixture(b, plugins, local(agent.RegistryOptions{}))
		fx.WriteSchema("verdict.json", verdictSchema)
		if _, err := fx.Registry.Dispatch(context.Background(), call); err != nil {
			b.Fatal(err)
		}
		if err := fx.Registry.Close(); err != nil {
			b.Fatal(err)
		}
	}
	dispatchOnce() // fill the cache
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dispatchOnce()
	}
}

// quietDisclosure sends the download disclosure (os.Stderr) to /dev/null
// for the benchmark: each b.N round fetches into a fresh cache.
func quietDisclosure(b *testing.B) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = null
	b.Cleanup(func() {
		os.Stderr = old
		null.Close()
	})
}
