package plugin

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// assemblySchema is the JSON Schema of Report (assembly.schema.json); the
// tests check every report against it.
//
//go:embed assembly.schema.json
var assemblySchema []byte

// newChain builds a chain from registrations (in order), without the
// configured assembly's secret mask (Assembly.NewChain builds that one).
func newChain(regs ...Registration) *Chain {
	return &Chain{regs: regs, mask: func(s string) string { return s }}
}

var (
	hookOnce sync.Once
	hookBin  string
	hookErr  error
	binDir   string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// testHookBinary builds internal/testhook once per test binary.
func testHookBinary(t testing.TB) string {
	t.Helper()
	hookOnce.Do(func() {
		binDir, hookErr = os.MkdirTemp("", "kitsoki-testhook-")
		if hookErr != nil {
			return
		}
		hookBin = filepath.Join(binDir, "testhook")
		out, err := exec.Command("go", "build", "-o", hookBin, "./internal/testhook").CombinedOutput()
		if err != nil {
			hookErr = fmt.Errorf("go build testhook: %v\n%s", err, out)
		}
	})
	if hookErr != nil {
		t.Fatal(hookErr)
	}
	return hookBin
}

// writeFile writes content under dir, creating parents.
// assembleWithSecret assembles a story-less assembly under the operator
// profile YAML profile, in an environment where SECRET_X is
// "hunter2hunter2" (and nothing else is set).
func assembleWithSecret(t testing.TB, profile string) *Assembly {
	t.Helper()
	a, err := Assemble(Options{StoryDir: t.TempDir(), ProfilePath: writeFile(t, t.TempDir()+"/p.yaml", profile),
		Getenv: func(k string) string {
			if k == "SECRET_X" {
				return "hunter2hunter2"
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func writeFile(t testing.TB, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// externalPlugin writes .kitsoki/plugins/<id>/manifest.yaml under root for
// the test hook in mode, registered at points with onError.
func externalPlugin(t testing.TB, root, id string, args []string, onError string, timeoutMS int, points ...Point) string {
	t.Helper()
	bin := testHookBinary(t)
	var hooks strings.Builder
	for _, p := range points {
		fmt.Fprintf(&hooks, "  - point: %s\n    on_error: %s\n", p, onError)
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	m := fmt.Sprintf("id: %s\nversion: 0.1.0\nsummary: test hook %s\nprovides: [policy]\nhooks:\n%sentry:\n  command: %q\n  args: [%s]\n  timeout_ms: %d\n",
		id, id, hooks.String(), bin, strings.Join(quoted, ", "), timeoutMS)
	return writeFile(t, filepath.Join(root, ProfileDir, "plugins", id, ManifestFile), m)
}

func noEnv(string) string { return "" }

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
