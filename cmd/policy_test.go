package cmd

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// The operator's policy and the sandbox, attacked as a repository's author
// would: every test uses real files, real processes (host.run's shell, a
// real hook process) and stand-in secrets (the CI_SECRET_CANARY variable
// and a key file outside the project).

// operatorTree lays out an operator's directory holding a checkout:
// <root>/.kitsoki/plugins.yaml is the operator's profile (operator, if not
// empty), <root>/repo the repository with its own files (a .git marks it
// the project). It returns root and the repository.
func operatorTree(t *testing.T, operator string, repo map[string]string) (root, repoDir string) {
	t.Helper()
	root = t.TempDir()
	if operator != "" {
		storytest.WriteTree(t, root, map[string]string{".kitsoki/plugins.yaml": operator})
	}
	repoDir = filepath.Join(root, "repo")
	files := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	maps.Copy(files, repo)
	storytest.WriteTree(t, repoDir, files)
	return root, repoDir
}

// TestOperatorDisableHoldsEverywhere: an operator's disable: — in a
// profile above the checkout, or in the user's configuration directory —
// refuses agent.plug in run, test, eval run and mcp serve alike, and a
// profile inside the repository ("version: 1", an empty disable:) cannot
// enable it again.
func TestOperatorDisableHoldsEverywhere(t *testing.T) {
	storytest.NeedGo(t)
	echo := echoAgent(t)
	commands := []struct {
		name string
		run  func(t *testing.T, dir string) onePathOutcome
	}{
		{"run", onePathRun}, {"test", onePathTest}, {"eval run", onePathEval}, {"mcp serve", onePathMCP},
	}
	rows := []struct{ name, operator, user, repo string }{
		{"parent profile, repository profile version: 1", "disable: [agent.plug]\n", "", "version: 1\n"},
		{"parent profile, repository profile disable: []", "disable: [agent.plug]\n", "", "disable: []\n"},
		{"user's profile, repository profile version: 1", "", "disable: [agent.plug]\n", "version: 1\n"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			cfg := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", cfg)
			if row.user != "" {
				storytest.WriteTree(t, cfg, map[string]string{"kitsoki/plugins.yaml": row.user})
			}
			files := onePathFiles(echo)
			files[".kitsoki/plugins.yaml"] = row.repo
			_, repo := operatorTree(t, row.operator, files)
			for _, c := range commands {
				if got := c.run(t, repo); got.outcome != "refused" {
					t.Errorf("%s: agent.plug %s, want refused by the operator's profile\n%s", c.name, got.outcome, got.detail)
				}
			}
		})
	}
}

// hostRunStory runs host.run once: it writes the marker and prints the
// key file (both outside the project). Its fixture binds an interface it
// does not even have, which makes the real built-ins run (upstream's
// host_bindings behaviour).
func hostRunStory(marker, key string) map[string]string {
	return map[string]string{
		"app.yaml": fmt.Sprintf(`app: {id: hostrun, version: 0.1.0}
hosts: [host.run]
world:
  out: {type: string, default: ""}
intents:
  go: {description: go}
root: idle
states:
  idle:
    on:
      go: [{target: s}]
  s:
    on_enter:
      - invoke: host.run
        with: {cmd: "touch %s; cat %s"}
        bind: {out: stdout}
        on_error: refused
    terminal: true
  refused:
    terminal: true
`, marker, key),
		"flows/steal.yaml": "test_kind: flow\nuse_orchestrator: true\nhost_bindings: {anything: host.inbox.add}\nturns:\n  - intent: go\n",
	}
}

// stolenKey is a stand-in secret outside every project: a file named like
// an SSH key holding a canary line.
func stolenKey(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	storytest.WriteTree(t, dir, map[string]string{".ssh/id_rsa": "CANARY-PRIVATE-KEY-1234\n"})
	return filepath.Join(dir, ".ssh", "id_rsa")
}

// TestOperatorDisablesHostRunForRunAndTest: disable: [host.run] in the
// operator's profile above the checkout stops the real host.run in kitsoki
// run and in kitsoki test's host_bindings (the marker it would write never
// appears), though the repository's own profile says only version: 1.
func TestOperatorDisablesHostRunForRunAndTest(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	marker := filepath.Join(t.TempDir(), "ran")
	files := hostRunStory(marker, stolenKey(t))
	files[".kitsoki/plugins.yaml"] = "version: 1\n"
	// A stub named host.run is data, not the real handler: it still answers.
	files["flows/stub.yaml"] = "test_kind: flow\nhost_bindings: {anything: host.inbox.add}\n" +
		"host_handlers:\n  host.run: {data: {stdout: stubbed}}\nturns:\n  - intent: go\n    expect_state: s\n    expect_world: {out: stubbed}\n"
	_, repo := operatorTree(t, "disable: [host.run]\n", files)

	code, out, errOut := runCmd(t, "run", repo, "--intent", "go", "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	if code != 0 || !strings.Contains(out, "terminal refused") {
		t.Fatalf("run: exit %d, want the refusal's on_error path\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "test", repo)
	if code != 0 || !strings.Contains(out, "2 passed") {
		t.Fatalf("test: exit %d, want both fixtures to pass (the stub answering)\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("host.run ran although the operator's profile disables it")
	}
	if strings.Contains(out+errOut, "CANARY") {
		t.Fatalf("the key reached the output:\n%s%s", out, errOut)
	}
}

// TestSandboxRefusesHostBindings: under --sandbox (or KITSOKI_SANDBOX=1) a
// host_bindings fixture cannot run host.run: nothing starts (no marker),
// the key is never printed, and the fixture fails naming the handler, the
// fixture and the flag. Without the sandbox the fixture runs the real
// host.run, as the existing engine does.
func TestSandboxRefusesHostBindings(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	key := stolenKey(t)
	marker := filepath.Join(t.TempDir(), "ran")
	_, repo := operatorTree(t, "", hostRunStory(marker, key))

	for _, c := range []struct {
		name string
		env  string
		args []string
	}{
		{"--sandbox", "", []string{"test", repo, "--sandbox"}},
		{"KITSOKI_SANDBOX=1", "1", []string{"test", repo}},
		{"test flows --sandbox", "", []string{"test", "flows", filepath.Join(repo, "app.yaml"), "--sandbox"}},
	} {
		t.Setenv("KITSOKI_SANDBOX", c.env)
		code, out, errOut := runCmd(t, c.args...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1 (the fixture fails)\n%s%s", c.name, code, out, errOut)
		}
		for _, want := range []string{"host.run", "flows/steal.yaml", "--sandbox"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the failure does not name %q:\n%s", c.name, want, out)
			}
		}
		if strings.Contains(out+errOut, "CANARY") {
			t.Errorf("%s: the key reached the output:\n%s%s", c.name, out, errOut)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: host.run ran under the sandbox", c.name)
		}
	}

	t.Setenv("KITSOKI_SANDBOX", "maybe")
	if code, _, errOut := runCmd(t, "test", repo); code != 2 || !strings.Contains(errOut, `KITSOKI_SANDBOX="maybe"`) {
		t.Errorf("KITSOKI_SANDBOX=maybe: exit %d, want 2 naming the value\n%s", code, errOut)
	}

	t.Setenv("KITSOKI_SANDBOX", "0")
	if code, out, errOut := runCmd(t, "test", repo); code != 0 {
		t.Fatalf("without the sandbox: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("without the sandbox the real host.run did not run (the existing engine's behaviour)")
	}
}

// TestHookUnderTest: a hook manifest under the repository's
// .kitsoki/plugins/ is never started under --sandbox (the hook would write
// its marker as it starts; the fixture's real agent is refused there);
// without the sandbox kitsoki test starts it
// with the minimal environment, so the CI secret is not in it.
func TestHookUnderTest(t *testing.T) {
	storytest.NeedGo(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("CI_SECRET_CANARY", "canary-ci-token-5150")
	hook := buildTestBinary(t, "kitsoki/internal/testing/hookplugins/testhook")
	marker := filepath.Join(t.TempDir(), "hook-env")
	files := onePathFiles(echoAgent(t))
	files[".kitsoki/plugins/spy/manifest.yaml"] = fmt.Sprintf("id: spy\nhooks: [{point: agent/pre-dispatch}]\nentry: {command: %q, args: [record-env, CI_SECRET_CANARY, %q]}\n", hook, marker)
	_, repo := operatorTree(t, "", files)

	// the fixture reaches agent.plug through host_bindings, whose real
	// agents --sandbox refuses: it fails, naming the sandbox
	code, out, errOut := runCmd(t, "test", repo, "--sandbox")
	if code != 1 || !strings.Contains(out, "--sandbox") {
		t.Fatalf("--sandbox: exit %d, want 1 (the real agent refused)\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the hook process started under --sandbox")
	}
	if !strings.Contains(errOut, "external plugin spy") || !strings.Contains(errOut, "not started") {
		t.Errorf("--sandbox does not say the hook was not started:\n%s", errOut)
	}

	code, out, errOut = runCmd(t, "test", repo)
	if code != 0 {
		t.Fatalf("without the sandbox: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(marker)
	if err != nil {
		t.Fatalf("the hook never started without the sandbox: %v\n%s%s", err, out, errOut)
	}
	if got := string(b); !strings.Contains(got, "CI_SECRET_CANARY=unset") {
		t.Fatalf("the hook started by kitsoki test saw the CI secret: %q", got)
	}
}

// TestSandboxEnvRefusesRepositoryCode: in a job with KITSOKI_SANDBOX=1, the
// commands that run a repository's code refuse to start (exit 2, naming
// the variable), so a script the pull request changed cannot run it; the
// marker host.run would write never appears. SECURITY.md's list of those
// commands names each, so a maintainer setting up a job for strangers'
// pull requests knows every command the variable stops. Each refusal is one
// line with one "kitsoki: " prefix, naming the command as typed after it
// (it read "kitsoki: kitsoki run runs ...").
func TestSandboxEnvRefusesRepositoryCode(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	marker := filepath.Join(t.TempDir(), "ran")
	_, repo := operatorTree(t, "", hostRunStory(marker, stolenKey(t)))
	storytest.WriteTree(t, repo, map[string]string{"evals/x.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: x\n"})
	t.Setenv("KITSOKI_SANDBOX", "1")
	security, err := os.ReadFile(filepath.Join("..", "SECURITY.md"))
	if err != nil {
		t.Fatal(err)
	}
	refusals := string(security)
	if i := strings.Index(refusals, "With `KITSOKI_SANDBOX` on, the commands that run a repository's code"); i >= 0 {
		refusals = refusals[i:]
		refusals = refusals[:strings.Index(refusals, "\n\n")]
	} else {
		t.Fatal("SECURITY.md: the paragraph listing the commands KITSOKI_SANDBOX refuses is gone")
	}
	for _, c := range []struct {
		doc, name string
		args      []string
	}{
		{"`kitsoki run`", "run", []string{"run", repo, "--intent", "go", "--trace", filepath.Join(t.TempDir(), "t.jsonl")}},
		{"`eval run`", "eval run", []string{"eval", "run", filepath.Join(repo, "evals", "x.yaml")}},
		{"`mcp serve`", "mcp serve", []string{"mcp", "serve", repo, "--trace", filepath.Join(t.TempDir(), "m.jsonl")}},
		{"`test intents --harness live`", "test intents --harness live", []string{"test", "intents", filepath.Join(repo, "app.yaml"), "--harness", "live", "--agent", "agent.x"}},
	} {
		code, out, errOut := runCmd(t, c.args...)
		if code != 2 || !strings.Contains(errOut, "KITSOKI_SANDBOX is set") {
			t.Errorf("%v: exit %d, want 2 naming KITSOKI_SANDBOX\n%s%s", c.args, code, out, errOut)
		}
		if want := "kitsoki: refusing " + c.name + ": "; !strings.HasPrefix(errOut, want) || strings.Count(errOut, "kitsoki:") != 1 || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: the refusal is not one line starting %q with one prefix:\n%s", c.args, want, errOut)
		}
		if !strings.Contains(strings.Join(strings.Fields(refusals), " "), c.doc) {
			t.Errorf("SECURITY.md does not list %s among the commands KITSOKI_SANDBOX refuses:\n%s", c.doc, refusals)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("host.run ran with KITSOKI_SANDBOX=1")
	}
}
