package host

import (
	"path/filepath"
	"testing"
)

// TestSandboxSafe: host.run, host.local, host.git, host.git_worktree and
// host.workspace_manager.get (processes) and names that are no built-in (a
// provider is a process) are not sandbox-safe; every other built-in is,
// so a new built-in must be placed on one side knowingly.
func TestSandboxSafe(t *testing.T) {
	for _, name := range Builtins(Options{}).Names() {
		if got, want := SandboxSafe(name), name != HandlerRun && name != HandlerLocalCI && name != HandlerGit && name != HandlerGitWorktree && name != HandlerWorkspaceManager; got != want {
			t.Errorf("SandboxSafe(%s) = %v, want %v", name, got, want)
		}
	}
	for _, name := range []string{"host.git.push", "host.vcsx.push", "host", "host.run.x"} {
		if SandboxSafe(name) {
			t.Errorf("SandboxSafe(%s) = true, want false (not a built-in)", name)
		}
	}
}

// TestSandboxOptions: under SandboxOptions KITSOKI_ARTIFACTS_ROOT cannot
// move host.artifacts_dir out of the working directory, Starlark has no
// network and search no embedder.
func TestSandboxOptions(t *testing.T) {
	outside := t.TempDir()
	o := SandboxOptions(Options{Getenv: func(k string) string {
		if k == "KITSOKI_ARTIFACTS_ROOT" {
			return outside
		}
		return ""
	}})
	if !o.Starlark.NoNetwork || o.Search.Embedder != nil {
		t.Fatalf("SandboxOptions: NoNetwork %v, embedder %v", o.Starlark.NoNetwork, o.Search.Embedder)
	}
	wd := t.TempDir()
	h, _, _, _ := Builtins(o).Lookup(HandlerArtifactsDir)
	d := mustOK(t, h, Env{WorkDir: wd}, map[string]any{"thread": "a", "body": "x"})
	if d["path"] != filepath.Join(wd, ".artifacts", "a.md") {
		t.Fatalf("artifacts written at %v, want inside the working directory %s", d["path"], wd)
	}
}
