package compose

import (
	"context"
	"errors"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// twoAliases declares two builtin.inprocess aliases, served by the
// compiled-in agents of DispatchOptions.InProcess.
func twoAliases(t *testing.T, profile string) *Loaded {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the developer's own profile plays no part
	files := map[string]string{
		"app.yaml": `app: {id: twoal}
agent_plugins:
  agent.a: {plugin: builtin.inprocess}
  agent.b: {plugin: builtin.inprocess}
hosts: [host.agent.ask]
root: s
states:
  s:
    terminal: true
    on_enter:
      - invoke: host.agent.ask
        agent: agent.a
        with: {prompt: "hi"}
`,
	}
	if profile != "" {
		files[".kitsoki/plugins.yaml"] = profile
	}
	ld, err := Load(storytest.TempTree(t, files), LoadOptions{NoCompile: true})
	if err != nil {
		t.Fatal(err)
	}
	return ld
}

// named answers with its name, so a test sees which agent answered.
type named string

func (n named) Ask(context.Context, *agent.AskRequest) (*agent.AskResponse, error) {
	return &agent.AskResponse{Submission: []byte(`"` + string(n) + `"`)}, nil
}

func ask(t *testing.T, reg *agent.Registry, alias string) (string, error) {
	t.Helper()
	res, err := reg.Dispatch(context.Background(), agent.Call{Alias: alias, Verb: "ask", SessionID: "s", StatePath: "s", Prompt: "hi"})
	if err != nil {
		return "", err
	}
	s, _ := res.Value.(string)
	return s, nil
}

// A runtime (run, test, mcp serve) and a matrix registry (eval run) built
// from one plan refuse the alias the profile disables, with the same
// words, and serve the other through the compiled-in agents.
func TestRuntimeAndMatrixShareTheProfile(t *testing.T) {
	ld := twoAliases(t, "disable: [agent.b]\n")
	plan, err := ResolveWith(ld, ResolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]agent.Agent{"agent.a": named("A"), "agent.b": named("B")}
	rt, err := plan.BuildWith(DispatchOptions{InProcess: in})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if got, err := ask(t, rt.Agents, "agent.a"); err != nil || got != "A" {
		t.Fatalf("runtime agent.a: %q %v", got, err)
	}
	_, runErr := ask(t, rt.Agents, "agent.b")
	if runErr == nil {
		t.Fatal("the runtime dispatched a disabled alias")
	}

	mx := plan.NewMatrix(DispatchOptions{InProcess: in})
	defer mx.Close()
	reg, err := mx.Registry("agent.a", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if got, err := ask(t, reg, "agent.a"); err != nil || got != "A" {
		t.Fatalf("matrix agent.a: %q %v", got, err)
	}
	_, mxErr := mx.Registry("agent.b", nil)
	if mxErr == nil || !strings.HasPrefix(mxErr.Error(), "agent.b is disabled") {
		t.Fatalf("the matrix built a disabled alias: %v", mxErr)
	}
	if !strings.Contains(runErr.Error(), mxErr.Error()) {
		t.Fatalf("run and eval word the refusal differently:\n run: %v\neval: %v", runErr, mxErr)
	}
}

// A matrix registry serves only its alias (declared as the candidate
// overrides it); the story's other aliases are not built.
func TestMatrixRegistryServesOneAlias(t *testing.T) {
	ld := twoAliases(t, "")
	plan, err := Resolve(ld, "")
	if err != nil {
		t.Fatal(err)
	}
	mx := plan.NewMatrix(DispatchOptions{InProcess: map[string]agent.Agent{"agent.a": named("A"), "agent.b": named("B")}})
	defer mx.Close()
	reg, err := mx.Registry("agent.a", &story.AgentPlugin{Alias: "agent.a", Plugin: story.PluginInProcess, Model: "m2"})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if got, err := ask(t, reg, "agent.a"); err != nil || got != "A" {
		t.Fatalf("matrix agent.a: %q %v", got, err)
	}
	if got, err := ask(t, reg, "agent.b"); err == nil {
		t.Fatalf("a candidate registry served another alias: %q", got)
	}
}

// A Strict load refuses a story with a lint-only error (Load runs it) and
// keeps the partial story for a watcher.
func TestLoadStrict(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{"app.yaml": lintOnlyStory})
	if _, err := Load(dir, LoadOptions{NoCompile: true}); err != nil {
		t.Fatalf("Load: %v", err)
	}
	_, err := Load(dir, LoadOptions{NoCompile: true, Strict: true})
	var se *LoadError
	if !errors.As(err, &se) || se.Story == nil || len(se.Diagnostics) == 0 || !strings.Contains(se.Diagnostics[0].Message, "nowhere") {
		t.Fatalf("LoadStrict: %v", err)
	}
	ld, err := Load(rig, LoadOptions{Compile: engine.CompileOptions{LateHandlers: true}, Strict: true})
	if err != nil || ld.Machine == nil {
		t.Fatalf("LoadStrict of a clean story: %v %+v", err, ld)
	}
}
