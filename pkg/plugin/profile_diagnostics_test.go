package plugin

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// TestProfileDiagnosticsMatchAssembly checks that ProfileDiagnostics,
// which stops assembling once the warnings are known, reports exactly the
// diagnostics of the full assembly: disabled, unknown and kernel ids,
// unread config:, skipped and clashing manifests, an unknown requirement,
// a requires cycle and an agent alias of an unknown transport.
func TestProfileDiagnosticsMatchAssembly(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), `disable:
  - transport.mcp_http
  - agent.fixer
  - transport.nope
  - trace
config:
  mystery: {}
  trace: {}
`)
	externalPlugin(t, root, "needs-ghost", nil, onErrorContinue, 1000, pointRunStart)
	gp := filepath.Join(root, ProfileDir, "plugins", "needs-ghost", ManifestFile)
	writeFile(t, gp, strings.Replace(readFile(t, gp), "provides: [policy]", "provides: [policy]\nrequires: [ghost]", 1))
	writeFile(t, filepath.Join(root, ProfileDir, "plugins", "broken", ManifestFile), "id: Not Valid\nentry: {}\n")
	writeFile(t, filepath.Join(root, ProfileDir, "plugins", "dup", ManifestFile), "id: redact\nhooks: [{point: run/start}]\nentry: {command: x}\n")
	for _, pair := range [][2]string{{"a-plug", "b-plug"}, {"b-plug", "a-plug"}} {
		writeFile(t, filepath.Join(root, ProfileDir, "plugins", pair[0], ManifestFile),
			"id: "+pair[0]+"\nrequires: ["+pair[1]+"]\nhooks: [{point: run/end}]\nentry: {command: x}\n")
	}
	st := testStory()
	st.AgentPlugins["agent.odd"] = &story.AgentPlugin{Alias: "agent.odd", Plugin: "no_such_transport"}
	for _, opts := range []Options{
		{StoryDir: filepath.Join(root, "story"), Story: st, Getenv: noEnv},
		{StoryDir: filepath.Join(root, "story"), Getenv: noEnv},
		{StoryDir: t.TempDir(), Story: st, Getenv: noEnv},
	} {
		a, err := Assemble(opts)
		if err != nil {
			t.Fatal(err)
		}
		want, got := a.Diagnostics(), ProfileDiagnostics(opts)
		if len(want) == 0 {
			t.Fatalf("%s: the assembly has no warnings to compare", opts.StoryDir)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: ProfileDiagnostics =\n%v\nwant\n%v", opts.StoryDir, got, want)
		}
	}
}
