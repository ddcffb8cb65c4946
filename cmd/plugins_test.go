package cmd

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

const pluginsStory = `app: { id: plugstory, version: 0.1.0 }
agent_plugins:
  agent.remote:
    plugin: mcp_http
    endpoint: http://127.0.0.1:1/mcp
  agent.fixer:
    plugin: subprocess
    command: ./fixer
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.remote
        with: { prompt: "hi" }
    terminal: true
`

func TestPluginsCommand(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml":                   pluginsStory,
		".kitsoki/plugins.yaml":            "disable: [transport.mcp_http, no.such.plugin]\n",
		".kitsoki/plugins/x/manifest.yaml": "id: BAD\n",
	})
	var out, errb bytes.Buffer
	if code := Run([]string{"plugins", filepath.Join(root, "story")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"profile: " + filepath.Join(root, ".kitsoki", "plugins.yaml"),
		"transport.mcp_http", "disabled: disabled by the profile",
		"agent.remote", "disabled: requires transport.mcp_http, which is disabled",
		"agent.fixer", "subprocess (transport.subprocess)",
		"1. agent/pre-dispatch  budget", "redact",
		`unknown plugin id "no.such.plugin"`, "external plugin skipped: malformed manifest",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}

	out.Reset()
	if code := Run([]string{"plugins", "--json", filepath.Join(root, "story")}, &out, &errb); code != 0 {
		t.Fatalf("--json exit %d: %s", code, errb.String())
	}
	var rep struct {
		Version int `json:"version"`
		Agents  []struct {
			Alias   string `json:"alias"`
			Enabled bool   `json:"enabled"`
		} `json:"agents"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Version != 1 || len(rep.Agents) != 3 {
		t.Fatalf("json: %v %+v\n%s", err, rep, out.String())
	}

	// --profile wins over the upward search; a malformed one fails with position, exit 2.
	bad := filepath.Join(root, "bad.yaml")
	storytest.WriteTree(t, root, map[string]string{"bad.yaml": "disable: [a]\nenable: [b]\n"})
	errb.Reset()
	if code := Run([]string{"plugins", "--profile", bad, filepath.Join(root, "story")}, &out, &errb); code != 2 {
		t.Fatalf("malformed profile: exit %d", code)
	}
	if !strings.Contains(errb.String(), bad+":2:1") || !strings.Contains(errb.String(), `unknown key "enable"`) {
		t.Fatalf("stderr:\n%s", errb.String())
	}
}

// TestPluginsShowsTimeoutsAndEndpointMode: the effective hard timeout of
// every alias (default, --call-timeout, per-invoke timeout:) and the right
// lifecycle for an endpoint-mode builtin.local_llm.
func TestPluginsShowsTimeoutsAndEndpointMode(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{"story/app.yaml": `app: { id: tmo, version: 0.1.0 }
agent_plugins:
  agent.glm: { plugin: builtin.local_llm, endpoint: "http://127.0.0.1:1/v1", model: glm-4.6 }
  agent.local: { plugin: builtin.local_llm, model: qwen2.5-0.5b-instruct-q4 }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.glm
        timeout: 45s
        with: { prompt: "hi" }
    terminal: true
`})
	var out, errb bytes.Buffer
	if code := Run([]string{"plugins", filepath.Join(root, "story")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"timeout 10m0s (default)", "ask in start: timeout 45s", "remote OpenAI-compatible endpoint, no sidecar"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	var glmLine, localLine string
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Contains(l, "agent.glm ") {
			glmLine = l
		}
		if strings.Contains(l, "agent.local ") {
			localLine = l
		}
	}
	if strings.Contains(glmLine, "sidecar per run") || !strings.Contains(localLine, "sidecar per run") {
		t.Errorf("lifecycles: %q / %q", glmLine, localLine)
	}
	out.Reset()
	if code := Run([]string{"plugins", filepath.Join(root, "story"), "--json", "--call-timeout", "90s"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Agents []struct {
			Alias        string
			Timeout      string
			CallTimeouts []struct{ State, Verb, Timeout string } `json:"call_timeouts"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, a := range rep.Agents {
		if a.Timeout != "1m30s (--call-timeout)" {
			t.Errorf("%s: timeout %q", a.Alias, a.Timeout)
		}
		if a.Alias == "agent.glm" && (len(a.CallTimeouts) != 1 || a.CallTimeouts[0].Timeout != "45s") {
			t.Errorf("agent.glm call timeouts %+v", a.CallTimeouts)
		}
	}
}

// TestPluginsListsHostHandlers: every host handler, built in or provided by
// a manifest's hosts:, with the story calls it serves; a call nobody
// serves is listed as missing with the ways to provide it.
func TestPluginsListsHostHandlers(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": `app: { id: hoststory, version: 0.1.0 }
hosts: [host.run, host.git, host.chat.create, host.ide.open_file]
host_interfaces:
  vcs: { default: host.git, operations: { push: {} } }
root: start
states:
  start:
    on_enter:
      - invoke: host.run
        with: { cmd: "true" }
      - invoke: iface.vcs.push
      - invoke: host.chat.create
      - invoke: host.ide.open_file
    terminal: true
`,
		".kitsoki/plugins/gitp/manifest.yaml": "id: gitp\nsummary: git and chat for this team\nhosts: [host.git, host.chat]\nentry: { command: ./never-started }\n",
	})
	var out, errb bytes.Buffer
	if code := Run([]string{"plugins", filepath.Join(root, "story")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"host handlers:",
		"host.run", "builtin", "host.starlark.run",
		"host.git", "provider:gitp", "git and chat for this team",
		"host.chat is called by:", `state "start" on_enter[2]`, "(host.chat.create)",
		"host.git is called by:", "(host.git.push via iface.vcs.push)",
		"host.ide", "missing",
		"1 host handler(s) the story calls have no handler", "--host-cassette FILE",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	out.Reset()
	if code := Run([]string{"plugins", "--json", filepath.Join(root, "story")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Hosts []struct {
			Name, Source string
			Uses         []struct{ Handler, Site string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, h := range rep.Hosts {
		got[h.Name] = h.Source + "/" + strings.Repeat("u", len(h.Uses))
	}
	for name, want := range map[string]string{"host.run": "builtin/u", "host.git": "provider:gitp/u", "host.chat": "provider:gitp/u", "host.ide": "missing/u", "host.inbox.add": "builtin/"} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q (all: %v)", name, got[name], want, got)
		}
	}
}

// A manifest's summary and version are the repository's text: each stays
// on its own row, so a summary holding newlines and tabs cannot add a
// plugin row ("injected builtin enabled") or a host handler to the list.
func TestPluginsManifestTextCannotAddRows(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": pluginsStory,
		".kitsoki/plugins/evil/manifest.yaml": `id: evil
version: "1\n  fake\tbuiltin\tenabled"
summary: "hello\n  injected  builtin  enabled  trusted\n::error::pwn\tx"
hooks: [{point: agent/pre-dispatch}]
hosts: [host.evil]
entry: { command: ./never-started }
`,
	})
	var out, errb bytes.Buffer
	if code := Run([]string{"plugins", filepath.Join(root, "story")}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for l := range strings.SplitSeq(out.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "injected") || strings.HasPrefix(l, "::") || strings.HasPrefix(l, `\x3a`) {
			t.Errorf("a manifest summary added a line %q:\n%s", l, out.String())
		}
		if strings.HasPrefix(strings.TrimSpace(l), "evil") && !strings.Contains(l, `hello\n  injected  builtin  enabled  trusted\n::error::pwn\tx`) {
			t.Errorf("evil's row %q does not show its summary escaped", l)
		}
	}
	if got := strings.Count(out.String(), `hello\n  injected`); got != 2 { // the plugin's row and host.evil's
		t.Errorf("summary shown %d times, want 2:\n%s", got, out.String())
	}
}
