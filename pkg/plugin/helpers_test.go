package plugin

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/testing/storytest"
)

// assemblySchema is the JSON Schema of Report (assembly.schema.json); the
// tests check every report against it.
//
//go:embed assembly.schema.json
var assemblySchema []byte

// reportSchema compiles assemblySchema.
func reportSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(assemblySchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("assembly.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("assembly.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// checkReport fails t unless the report JSON b satisfies sch.
func checkReport(t testing.TB, sch *jsonschema.Schema, b []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("report does not satisfy assembly.schema.json: %v\n%s", err, b)
	}
}

// assemble assembles the story directory root (no story, no environment).
func assemble(t testing.TB, root string) *Assembly {
	t.Helper()
	a, err := Assemble(Options{StoryDir: root, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// newChain builds a chain from registrations (in order), without the
// configured assembly's secret mask (Assembly.NewChain builds that one).
func newChain(regs ...Registration) *Chain {
	return &Chain{regs: regs, mask: func(s string) string { return s }}
}

// programs are the test programs, built together once per test binary as
// storytest builds every repository program (removed by TestMain).
var programs = &storytest.Programs{Pkgs: []string{
	"kitsoki/internal/testing/hookplugins/testhook",
	"kitsoki/internal/testing/hookplugins/testhostprovider",
}}

func TestMain(m *testing.M) {
	removeConfig := storytest.EmptyConfigDir()
	code := m.Run()
	programs.Remove()
	removeConfig()
	os.Exit(code)
}

// testProgram returns the path of the test program internal/<name>
// (testhook, testhostprovider), building them all on first use.
func testProgram(t testing.TB, name string) string {
	t.Helper()
	return programs.Path(t, name)
}

// testHookBinary is the hook plugin program (internal/testing/hookplugins/testhook).
func testHookBinary(t testing.TB) string { return testProgram(t, "testhook") }

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
	storytest.WriteFile(t, path, content)
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

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, point Point, payload Payload) (Result, error)

// Hook calls f.
func (f HandlerFunc) Hook(ctx context.Context, point Point, payload Payload) (Result, error) {
	return f(ctx, point, payload)
}
