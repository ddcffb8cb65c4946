package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/agent"
)

// layeredTree is an operator's directory holding a checkout:
//
//	.kitsoki/plugins.yaml          the operator's: disable host.run and agent.fixer
//	repo/.kitsoki/plugins.yaml     the repository's: holding what the row says
//	repo/story/                    the story
func layeredTree(t *testing.T, repoProfile string) (root, storyDir string) {
	t.Helper()
	root = t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "disable: [host.run, transport.mcp_http]\nconfig:\n  budget: {max_cost_usd: 2}\n")
	if repoProfile != "" {
		writeFile(t, filepath.Join(root, "repo", ProfileDir, ProfileFile), repoProfile)
	}
	storyDir = filepath.Join(root, "repo", "story")
	if err := os.MkdirAll(storyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, storyDir
}

// TestParentDisableHoldsUnderANearerProfile: a profile nearer the story
// (the repository's) adds to the ones above it and never undoes them, be
// it empty, "version: 1", or one with its own disable: and config:.
func TestParentDisableHoldsUnderANearerProfile(t *testing.T) {
	for _, repo := range []string{"", "version: 1\n", "disable: []\n", "disable: [budget]\nconfig:\n  budget: {max_cost_usd: 50}\n"} {
		_, dir := layeredTree(t, repo)
		a, err := Assemble(Options{StoryDir: dir, Getenv: noEnv, NoUserProfile: true})
		if err != nil {
			t.Fatalf("%q: %v", repo, err)
		}
		for _, id := range []string{"host.run", "transport.mcp_http"} {
			if a.Enabled(id) {
				t.Errorf("repository profile %q re-enabled %s", repo, id)
			}
		}
		if strings.Contains(repo, "budget]") && a.Enabled("budget") {
			t.Errorf("repository profile %q: its own disable: was dropped", repo)
		}
		if a.Profile.Budget.MaxCostUSD != 2 {
			t.Errorf("repository profile %q: budget %v, want the tighter 2", repo, a.Profile.Budget.MaxCostUSD)
		}
		if !hasHook(a, pointHostPreCall, idHostRun) {
			t.Errorf("repository profile %q: no host.run gate in %+v", repo, a.Hooks)
		}
	}
}

// TestOperatorProfileAppliedLast: --profile and the user's profile are
// layers over the repository's: their disable: holds, the repository's
// own disable: still applies, and the reason names the operator's file.
func TestOperatorProfileAppliedLast(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "repo", ProfileDir, ProfileFile), "version: 1\ndisable: [transport.claude_cli]\n")
	dir := filepath.Join(root, "repo")
	flag := writeFile(t, filepath.Join(root, "ops", "ci.yaml"), "disable: [host.run]\n")
	cfg := filepath.Join(root, "config")
	writeFile(t, filepath.Join(cfg, filepath.FromSlash(UserProfileName)), "disable: [transport.subprocess]\n")
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", root) // os.UserConfigDir's fallback elsewhere than Linux

	a, err := Assemble(Options{StoryDir: dir, ProfilePath: flag, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"host.run", "transport.claude_cli", "transport.subprocess"} {
		if a.Enabled(id) {
			t.Errorf("%s enabled, want every layer's disable: applied (layers %+v)", id, a.Layers)
		}
	}
	var sources []string
	for _, l := range a.Layers {
		sources = append(sources, l.Source)
	}
	if got := strings.Join(sources, ","); got != "search,user,flag" {
		t.Errorf("layers %s, want search,user,flag (the operator's last)", got)
	}
	if a.ProfilePath != flag {
		t.Errorf("ProfilePath %q, want the --profile file", a.ProfilePath)
	}
	for _, p := range a.Plugins {
		if p.ID == idHostRun && !strings.Contains(p.Reason, "ci.yaml:1:") {
			t.Errorf("host.run reason %q does not name the operator's profile", p.Reason)
		}
	}
	b, _ := a.Report("").JSON()
	checkReport(t, reportSchema(t), b)

	// NoUserProfile leaves the user's profile out.
	a, err = Assemble(Options{StoryDir: dir, Getenv: noEnv, NoUserProfile: true})
	if err != nil || !a.Enabled("transport.subprocess") {
		t.Fatalf("NoUserProfile: err %v, layers %+v", err, a.Layers)
	}
}

// TestLayerErrorsArePositionedInTheirFile: a malformed layer fails the
// assembly with its own path, whichever layer it is.
func TestLayerErrorsArePositionedInTheirFile(t *testing.T) {
	root, dir := layeredTree(t, "disable: nope\n")
	_, err := Assemble(Options{StoryDir: dir, Getenv: noEnv, NoUserProfile: true})
	pe, ok := err.(*ProfileError)
	if !ok || len(pe.Diagnostics) != 1 || pe.Diagnostics[0].File != filepath.Join(root, "repo", ProfileDir, ProfileFile) || pe.Diagnostics[0].Line != 1 {
		t.Fatalf("err %v, want one diagnostic at the repository's profile, line 1", err)
	}
}

// TestSandboxStartsNoPlugin: under Sandbox every external plugin is
// disabled with the sandbox reason, its hooks are not registered and its
// host handlers not served; nothing is started (the hook would write its
// marker as it starts).
func TestSandboxStartsNoPlugin(t *testing.T) {
	root := t.TempDir()
	marker := filepath.Join(t.TempDir(), "started")
	externalPlugin(t, root, "ext", []string{"record-env", "CI_SECRET_CANARY", marker}, onErrorVeto, 60000, pointPreDispatch)
	a, err := Assemble(Options{StoryDir: root, Getenv: noEnv, NoUserProfile: true, Sandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Enabled("ext") || hasHook(a, pointPreDispatch, "ext") {
		t.Fatalf("ext enabled under Sandbox: %+v %+v", a.Plugins, a.Hooks)
	}
	if ns := a.NotStarted(); len(ns) != 1 || ns[0].ID != "ext" || ns[0].Reason != SandboxReason {
		t.Fatalf("not started %+v, want ext for the sandbox reason", ns)
	}
	chain := a.NewChain()
	reg, _, _ := newHookedRegistry(t, chain)
	if _, err := reg.Dispatch(context.Background(), dispatchCall()); err != nil {
		t.Fatal(err)
	}
	chain.Close()
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the hook process started under Sandbox")
	}
}

// TestMinimalEnvHidesSecrets: with MinimalEnv a hook process starts
// without kitsoki's other variables (a CI secret), with PATH; without it
// the hook inherits them (kitsoki run).
func TestMinimalEnvHidesSecrets(t *testing.T) {
	t.Setenv("CI_SECRET_CANARY", "canary-4711")
	for _, minimal := range []bool{true, false} {
		root := t.TempDir()
		marker := filepath.Join(t.TempDir(), "env")
		externalPlugin(t, root, "ext", []string{"record-env", "CI_SECRET_CANARY", marker}, onErrorVeto, 60000, pointPreDispatch)
		a, err := Assemble(Options{StoryDir: root, Getenv: noEnv, NoUserProfile: true, MinimalEnv: minimal})
		if err != nil {
			t.Fatal(err)
		}
		chain := a.NewChain()
		reg, _, _ := newHookedRegistry(t, chain)
		if _, err := reg.Dispatch(context.Background(), dispatchCall()); err != nil {
			t.Fatal(err)
		}
		chain.Close()
		got := readFile(t, marker)
		want := "CI_SECRET_CANARY=canary-4711"
		if minimal {
			want = "CI_SECRET_CANARY=unset"
		}
		if !strings.Contains(got, "started\n") || !strings.Contains(got, want) {
			t.Errorf("MinimalEnv %v: the hook saw %q, want %q", minimal, got, want)
		}
	}
}

func hasHook(a *Assembly, p Point, id string) bool {
	for _, h := range a.Hooks {
		if h.Point == p && h.Plugin == id {
			return true
		}
	}
	return false
}

// dispatchCall is a plain agent call to agent.x.
func dispatchCall() agent.Call {
	return agent.Call{Alias: "agent.x", Verb: "ask", SessionID: "s", Turn: 1, StatePath: "st", Prompt: "p"}
}
