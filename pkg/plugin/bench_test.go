package plugin

import (
	"context"
	"path/filepath"
	"testing"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

// BenchmarkChainBuiltins: one agent/pre-dispatch pass through budget and
// redact (two patterns, one env value) on a 4 KiB prompt.
func BenchmarkChainBuiltins(b *testing.B) {
	dir := b.TempDir()
	prof := writeFile(b, filepath.Join(dir, "p.yaml"), "config:\n  redact: {patterns: [\"sk-[a-z0-9]{6,}\", \"ghp_[A-Za-z0-9]{10,}\"], env: [TOK]}\n  budget: {max_tokens: 1000000}\n")
	a, err := Assemble(Options{StoryDir: dir, ProfilePath: prof, Getenv: func(string) string { return "tok-value-123" }})
	if err != nil {
		b.Fatal(err)
	}
	c := a.NewChain()
	defer c.Close()
	prompt := make([]byte, 4096)
	for i := range prompt {
		prompt[i] = 'a' + byte(i%26)
	}
	p := Payload{"alias": "agent.claude", "verb": "decide", "prompt": string(prompt), "with": map[string]any{"args": map[string]any{"k": "v"}}}
	benchPreDispatch(b, c, p)
}

// BenchmarkExternalHook: one round trip to a reused external hook process
// (rewrite mode).
func BenchmarkExternalHook(b *testing.B) {
	root := b.TempDir()
	externalPlugin(b, root, "ext", []string{"rewrite"}, onErrorVeto, 5000, pointPreDispatch)
	a := assemble(b, root)
	c := a.NewChain()
	defer c.Close()
	p := Payload{"prompt": "hello", "alias": "agent.claude"}
	benchPreDispatch(b, c, p)
}

// BenchmarkDispatchHooked: a full agent.Registry.Dispatch to an in-process
// agent with the default assembly's hooks attached (budget + redact, no
// patterns) versus none.
func BenchmarkDispatchHooked(b *testing.B) {
	for _, hooked := range []bool{false, true} {
		name := "none"
		if hooked {
			name = "default-assembly"
		}
		b.Run(name, func(b *testing.B) {
			a, err := Assemble(Options{StoryDir: b.TempDir(), Getenv: noEnv})
			if err != nil {
				b.Fatal(err)
			}
			c := a.NewChain()
			defer c.Close()
			reg, err := agent.NewRegistryFromPlugins(map[string]*story.AgentPlugin{"agent.x": {Alias: "agent.x", Plugin: story.PluginInProcess}},
				agent.RegistryOptions{AppID: "bench", StoryDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer reg.Close()
			_ = reg.RegisterInProcess("agent.x", &seenAgent{})
			if hooked {
				reg.SetHooks(c.AgentHooks())
			}
			call := agent.Call{Alias: "agent.x", Verb: "ask", Turn: 1, StatePath: "s", Prompt: "hello", With: map[string]any{"args": map[string]any{"k": "v"}}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := reg.Dispatch(context.Background(), call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchPreDispatch times c's agent/pre-dispatch hooks on p.
func benchPreDispatch(b *testing.B, c *Chain, p Payload) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, halt, err := c.Run(context.Background(), pointPreDispatch, p, nil); err != nil || halt != nil {
			b.Fatal(err, halt)
		}
	}
}
