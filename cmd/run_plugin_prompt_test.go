package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginPromptSources: on the plugin path (an effect's agent: alias
// naming a real subprocess plugin) ask, decide and converse pick and
// render their prompt as on the default agent's path, as the existing
// engine's session does (conformance plugin-prompt-sources: its
// upstream-prompts.json is what upstream's agent.call.start events
// carried for the same story): an ask's inline text is sent as written,
// {% %} tags and all, prompt_path (trimmed) wins over prompt:, decide's
// prompt_path is read trimmed and converse's question is never a file
// name.
func TestPluginPromptSources(t *testing.T) {
	src := filepath.Join("..", "pkg", "host", "testdata", "conformance", "plugin-prompt-sources")
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dir, "app.yaml")
	data, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	const decl = `command: kitsoki-rec-plugin, env: {GOT: "${GOT}"}`
	if !strings.Contains(string(data), decl) {
		t.Fatalf("app.yaml has no %q", decl)
	}
	data = []byte(strings.Replace(string(data), decl, fmt.Sprintf("command: %q", echoAgent(t)), 1))
	if err := os.WriteFile(app, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	raw, err := os.ReadFile(filepath.Join(src, "upstream-prompts.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	tracePath, _ := runTraced(t, dir, "--timeout", "2m")
	var got []map[string]any
	for _, ev := range readTrace(t, tracePath) {
		if ev.Kind == "agent.call.start" {
			p := payloadOf(t, ev)
			got = append(got, map[string]any{"verb": p["verb"], "prompt": p["prompt"]})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d agent calls started, upstream %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i]["verb"] != want[i]["verb"] || got[i]["prompt"] != want[i]["prompt"] {
			t.Errorf("call %d: %s sent %q, upstream %s %q", i, got[i]["verb"], got[i]["prompt"], want[i]["verb"], want[i]["prompt"])
		}
	}
}
