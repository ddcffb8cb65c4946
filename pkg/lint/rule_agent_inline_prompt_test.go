package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// confargs (conformance child-prompt-rebased): both engines join an
// imported child's relative with.prompt to the child's directory whatever
// it holds, so inline text reaches the agent as a path. validate names
// it in the child; a templated or absolute prompt, a prompt file that
// exists, and the child validated on its own are left alone.
func TestImportedInlinePromptRebased(t *testing.T) {
	parent := "app: {id: par}\nintents: {enter: {}}\nroot: idle\nimports:\n  kid:\n    source: ./kid\nstates:\n" +
		"  idle:\n    on: {enter: [{target: kid}]}\n"
	kid := "app: {id: kid}\nhosts: [host.agent.ask]\nintents: {go: {}}\nroot: s0\nstates:\n" +
		"  s0:\n    on: {go: [{target: s0, effects: [{invoke: host.agent.ask, with: {prompt: PROMPT}}]}]}\n"
	const want = "inline prompt text in an imported story: both engines re-base it as a path"
	for _, tc := range []struct {
		prompt string
		warns  bool
	}{
		{`"Say hi"`, true},
		{`"line one\nline two"`, true},
		{`"{{ world.p }}"`, false},
		{`/abs/Say hi`, false},
		{`hello.md`, false}, // a file name: agent-file judges it (it exists here)
	} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", parent)
		write(t, dir, "kid/app.yaml", strings.Replace(kid, "PROMPT", tc.prompt, 1))
		write(t, dir, "kid/hello.md", "hello")
		_, ds := Load(dir, story.Options{})
		n := 0
		for _, d := range ds {
			if d.Rule == ruleAgentFile.ID && strings.Contains(d.Message, want) {
				n++
				if !strings.Contains(d.Message, "kid/") {
					t.Errorf("prompt %s: message does not name the path sent: %s", tc.prompt, d.Message)
				}
			}
		}
		if tc.warns != (n == 1) || n > 1 {
			t.Errorf("prompt %s: %d warnings %q, want warned: %v (all: %v)", tc.prompt, n, want, tc.warns, ds)
		}
		// the child validated on its own: nothing re-bases its prompt
		_, alone := Load(dir+"/kid", story.Options{})
		for _, d := range alone {
			if strings.Contains(d.Message, want) {
				t.Errorf("prompt %s: the child alone warns: %s", tc.prompt, d.Message)
			}
		}
	}
}
