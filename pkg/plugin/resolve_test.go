package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

func testStory() *story.Story {
	return &story.Story{AgentPlugins: map[string]*story.AgentPlugin{
		"agent.claude": {Alias: "agent.claude", Plugin: story.PluginClaudeCLI, Injected: true},
		"agent.remote": {Alias: "agent.remote", Plugin: story.PluginMCPHTTP},
		"agent.fixer":  {Alias: "agent.fixer", Plugin: story.PluginSubprocess},
	}}
}

func TestDefaultAssemblyEnablesEverything(t *testing.T) {
	a, err := Assemble(Options{StoryDir: t.TempDir(), Story: testStory(), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if a.ProfileFound || len(a.Warnings) != 0 {
		t.Fatalf("profile found %v, warnings %v", a.ProfileFound, a.Warnings)
	}
	for _, p := range a.Plugins {
		if !p.Enabled {
			t.Errorf("%s disabled: %s", p.ID, p.Reason)
		}
	}
	for _, ag := range a.Agents {
		if !ag.Enabled || ag.Plugin == "" || ag.Lifecycle == "" {
			t.Errorf("agent %+v", ag)
		}
	}
	want := []string{"budget/agent/pre-dispatch", "budget/agent/post-return", "redact/agent/pre-dispatch"}
	var got []string
	for _, h := range a.Hooks {
		got = append(got, h.Plugin+"/"+string(h.Point))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("hooks = %v, want %v", got, want)
	}
}

func TestExplicitTransitiveAndUnknownDisable(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), `disable:
  - transport.mcp_http
  - agent.fixer
  - transport.nope
config:
  mystery: {}
`)
	externalPlugin(t, root, "needs-remote", nil, OnErrorContinue, 1000, PointRunStart)
	// make the external plugin require the disabled transport
	mp := filepath.Join(root, ProfileDir, "plugins", "needs-remote", ManifestFile)
	writeFile(t, mp, strings.Replace(readFile(t, mp), "provides: [policy]", "provides: [policy]\nrequires: [transport.mcp_http]", 1))
	externalPlugin(t, root, "needs-ghost", nil, OnErrorContinue, 1000, PointRunStart)
	gp := filepath.Join(root, ProfileDir, "plugins", "needs-ghost", ManifestFile)
	writeFile(t, gp, strings.Replace(readFile(t, gp), "provides: [policy]", "provides: [policy]\nrequires: [ghost]", 1))

	a, err := Assemble(Options{StoryDir: filepath.Join(root, "story"), Story: testStory(), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if !a.ProfileFound {
		t.Fatal("profile not found upward")
	}
	status := map[string]PluginStatus{}
	for _, p := range a.Plugins {
		status[p.ID] = p
	}
	if p := status["transport.mcp_http"]; p.Enabled || !strings.Contains(p.Reason, "disabled by the profile") || !strings.Contains(p.Reason, ":2:5") {
		t.Errorf("transport.mcp_http = %+v", p)
	}
	if p := status["needs-remote"]; p.Enabled || p.Reason != "requires transport.mcp_http, which is disabled" || p.Source != SourceExternal {
		t.Errorf("needs-remote = %+v", p)
	}
	if p := status["needs-ghost"]; p.Enabled || !strings.Contains(p.Reason, "ghost, which is not a known plugin") {
		t.Errorf("needs-ghost = %+v", p)
	}
	remote, _ := a.Agent("agent.remote")
	if remote.Enabled || remote.Reason != "requires transport.mcp_http, which is disabled" {
		t.Errorf("agent.remote = %+v", remote)
	}
	fixer, _ := a.Agent("agent.fixer")
	if fixer.Enabled || !strings.Contains(fixer.Reason, "disabled by the profile") {
		t.Errorf("agent.fixer = %+v", fixer)
	}
	if claude, _ := a.Agent(""); !claude.Enabled {
		t.Errorf("agent.claude = %+v", claude)
	}
	var msgs []string
	for _, w := range a.Warnings {
		msgs = append(msgs, w.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{`unknown plugin id "transport.nope"`, `unknown plugin id "mystery"`, `requires "ghost"`} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	// unknown ids are positioned
	ds := a.Diagnostics()
	found := false
	for _, d := range ds {
		if strings.Contains(d.Message, "transport.nope") && d.Line == 4 && d.Col == 5 {
			found = true
		}
	}
	if !found {
		t.Errorf("no positioned diagnostic for transport.nope: %v", ds)
	}
	// disabled externals register no hooks; build order puts requirements first
	for _, h := range a.Hooks {
		if h.Plugin == "needs-remote" {
			t.Errorf("disabled plugin registered a hook: %+v", h)
		}
	}
	if idx(a.BuildOrder, "transport.mcp_http") > idx(a.BuildOrder, "needs-remote") {
		t.Errorf("build order %v", a.BuildOrder)
	}
}

func TestMalformedManifestIsSkippedWithWarning(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, "plugins", "broken", ManifestFile), "id: Not Valid\nentry: {}\n")
	writeFile(t, filepath.Join(root, ProfileDir, "plugins", "dup", ManifestFile), "id: redact\nhooks: [{point: run/start}]\nentry: {command: x}\n")
	a, err := Assemble(Options{StoryDir: root, Getenv: noEnv})
	if err != nil {
		t.Fatalf("a malformed third-party manifest stopped the assembly: %v", err)
	}
	all := ""
	for _, w := range a.Warnings {
		all += w.File + ": " + w.Message + "\n"
	}
	if !strings.Contains(all, "broken/manifest.yaml: external plugin skipped: malformed manifest") || !strings.Contains(all, `id "redact" is already used by a built-in plugin`) {
		t.Fatalf("warnings:\n%s", all)
	}
}

func TestRequiresCycleDisablesBoth(t *testing.T) {
	root := t.TempDir()
	for _, pair := range [][2]string{{"a-plug", "b-plug"}, {"b-plug", "a-plug"}} {
		writeFile(t, filepath.Join(root, ProfileDir, "plugins", pair[0], ManifestFile),
			"id: "+pair[0]+"\nrequires: ["+pair[1]+"]\nhooks: [{point: run/end}]\nentry: {command: x}\n")
	}
	a, err := Assemble(Options{StoryDir: root, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if a.Enabled("a-plug") || a.Enabled("b-plug") {
		t.Fatalf("cycle members enabled: %+v", a.Plugins)
	}
}

func TestReportMatchesCommittedSchema(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "disable: [transport.subprocess, nope]\n")
	externalPlugin(t, root, "policy", []string{"veto"}, OnErrorVeto, 500, PointPreDispatch, PointHostPreCall)
	a, err := Assemble(Options{StoryDir: root, Story: testStory(), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.Report(filepath.Join(root, "app.yaml")).JSON()
	if err != nil {
		t.Fatal(err)
	}
	sch := storytest.CompileSchema(t, "assembly.schema.json", Schema)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("report does not satisfy assembly.schema.json: %v\n%s", err, b)
	}
	// and the schema is not vacuous: a disabled plugin without a reason fails
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	m["plugins"].([]any)[0].(map[string]any)["enabled"] = false
	delete(m["plugins"].([]any)[0].(map[string]any), "reason")
	if err := sch.Validate(m); err == nil {
		t.Fatal("schema accepted a disabled plugin without a reason")
	}
	if !strings.Contains(string(b), `"plugin": "policy"`) || !strings.Contains(string(b), `"point": "host/pre-call"`) {
		t.Fatalf("report lacks the external hooks:\n%s", b)
	}
}

func idx(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func TestKernelCannotBeDisabledAndHostRunGate(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "disable: [trace, host.run]\n")
	a, err := Assemble(Options{StoryDir: root, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Enabled(IDTrace) || a.Enabled(IDHostRun) {
		t.Fatalf("trace %v host.run %v", a.Enabled(IDTrace), a.Enabled(IDHostRun))
	}
	if len(a.Warnings) != 1 || !strings.Contains(a.Warnings[0].Message, "trace is part of the kernel") {
		t.Fatalf("warnings = %+v", a.Warnings)
	}
	c := a.NewChain()
	defer c.Close()
	if _, err := c.HostPreCall(context.Background(), "host.run", map[string]any{"cmd": "ls"}, nil); err == nil || !strings.Contains(err.Error(), "host.run is disabled in the plugin assembly (disabled by the profile") {
		t.Fatalf("host.run gate: %v", err)
	}
	if args, err := c.HostPreCall(context.Background(), "host.other", map[string]any{"x": 1}, nil); err != nil || args["x"] != 1 {
		t.Fatalf("other host calls pass: %v %v", args, err)
	}
}
