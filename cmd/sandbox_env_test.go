package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// sandboxEnvStory names $KITSOKI_TEST_GUESS in an agent plugin's header;
// its fixture binds a cassette answer holding a guess of the value and
// expects it unchanged (a fixture's cassette answers host.agent.ask as
// upstream, never through the plugin: conformance
// cassette-alias-episode-unplayed).
var sandboxEnvStory = map[string]string{
	".git/HEAD": "ref: refs/heads/main\n",
	"story/app.yaml": `app: { id: envp, version: 0.1.0 }
agent_plugins:
  agent.x:
    plugin: mcp_http
    endpoint: http://127.0.0.1:9/
    headers: { X-Who: "${KITSOKI_TEST_GUESS}" }
world:
  out: {type: string, default: ""}
intents:
  go: {description: go}
root: s
states:
  s:
    on:
      go: [{target: t}]
  t:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.x
        with: { prompt: "hi" }
        bind: { out: submitted }
    terminal: true
`,
	"story/flows/cas.yaml": `kind: host_cassette
app_id: envp
episodes:
  - id: e1
    replay: any
    match: {handler: host.agent.ask}
    response: {data: {ok: true, submitted: guess-hunter2}}
`,
	"story/flows/f.yaml": `test_kind: flow
app: ../app.yaml
initial_state: s
host_cassette: cas.yaml
turns:
  - intent: {name: go}
    expect_world: { out: guess-hunter2 }
`,
}

// TestSandboxStoryReadsNoEnvironment: under --sandbox (and validate under
// KITSOKI_SANDBOX) a story's ${VAR}s resolve to nothing of the job's
// environment. Resolved, a value was a
// secret the cassette answers were masked with, so the fixture above
// failed ("guess-[REDACTED]") exactly when the job's variable held the
// guess (while fixtures answered alias episodes through the plugin's
// transport), and a story naming an unset variable did not load: a pull
// request learned a variable's value by guessing, and whether it is set;
// validate's findings said whether it was set and shorter than 4 bytes.
func TestSandboxStoryReadsNoEnvironment(t *testing.T) {
	dir := storytest.TempTree(t, sandboxEnvStory)
	story := filepath.Join(dir, "story")
	for _, env := range []string{"hunter2", "other", ""} {
		t.Run("KITSOKI_TEST_GUESS="+env, func(t *testing.T) {
			t.Setenv("KITSOKI_TEST_GUESS", env)
			if env == "" {
				os.Unsetenv("KITSOKI_TEST_GUESS") // t.Setenv puts it back
			}
			code, out, errOut := runCmd(t, "test", "--sandbox", story)
			if code != 0 || strings.Contains(out+errOut, "REDACTED") {
				t.Errorf("exit %d:\n%s%s", code, out, errOut)
			}
		})
	}
	// validate in the sandboxed job says the same of a variable unset,
	// too short to mask, or set
	var first string
	for _, env := range []string{"", "ab", "hunter2"} {
		t.Setenv("KITSOKI_TEST_GUESS", env)
		if env == "" {
			os.Unsetenv("KITSOKI_TEST_GUESS")
		}
		t.Setenv("KITSOKI_SANDBOX", "1")
		code, out, errOut := runCmd(t, "validate", story)
		got := fmt.Sprintf("exit %d\n%s%s", code, out, errOut)
		if first == "" {
			first = got
		} else if got != first {
			t.Errorf("validate under KITSOKI_SANDBOX with KITSOKI_TEST_GUESS=%q:\n%s\nwith it unset:\n%s", env, got, first)
		}
	}
	t.Setenv("KITSOKI_SANDBOX", "")
	// without --sandbox the story is trusted code: its ${VAR} resolves, so
	// with the variable unset the story does not load
	os.Unsetenv("KITSOKI_TEST_GUESS")
	if code, out, errOut := runCmd(t, "test", story); code == 0 || !strings.Contains(errOut, "KITSOKI_TEST_GUESS") {
		t.Errorf("without --sandbox, the variable unset: exit %d\n%s%s", code, out, errOut)
	}
}
