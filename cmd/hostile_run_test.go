package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// Hostile-input regression tests for kitsoki run (and the story argument
// of mcp serve and plugins): escape sequences from a cassette, prompts
// reaching outside the story, bad paths and bad flag files.

const hostileRunStory = `app: { id: hostile-run, version: 0.1.0 }
hosts: [host.agent.ask]
agents:
  helper: { system_prompt: "Answer briefly." }
world:
  answer: { type: string, default: "" }
intents:
  done: { description: "(internal) answered." }
exits:
  answered: {}
root: asking
states:
  asking:
    on_enter:
      - invoke: host.agent.ask
        id: q
        with: { agent: helper, prompt: prompts/q.md }
        bind: { answer: stdout }
      # false where the chain reaches it; fires in the post-bind pass
      - when: "world.answer != ''"
        emit_intent: done
    on:
      done: [ { target: "@exit:answered", effects: [ { say: "{{ world.answer }}" } ] } ]
`

// hostileRunDir writes the story (prompt text prompt) into dir/s and a
// cassette answering its one call with answer into dir/c.yaml.
func hostileRunDir(t *testing.T, prompt, answer string) string {
	t.Helper()
	dir := hostileDir(t)
	storytest.WriteTree(t, dir, map[string]string{
		"s/app.yaml":     hostileRunStory,
		"s/prompts/q.md": prompt,
		"c.yaml": "kind: host_cassette\napp_id: hostile-run\nmatch_on: [call]\nepisodes:\n  - id: q\n    match: { call: q }\n" +
			"    agent: { verb: ask, response: " + `"` + answer + `"` + " }\n",
	})
	return dir
}

func TestHostileRunCassetteEscapeSequences(t *testing.T) {
	// The YAML double-quoted answer holds ESC ] 0 ; pwned BEL: a terminal
	// title change if printed raw.
	dir := hostileRunDir(t, "Say hi.", `\e]0;pwned\a ok`)
	out, errOut, code := hostile(t, dir, "run", "s", "--cassette", "c.yaml", "--trace", "t.jsonl")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if strings.ContainsAny(out+errOut, "\x1b\x07") {
		t.Fatalf("raw control characters in the human log:\n%q", out+errOut)
	}
	if !strings.Contains(out, `say: \x1b]0;pwned\x07 ok`) {
		t.Fatalf("the say line does not show the escaped answer:\n%s", out)
	}
}

func TestHostileRunPromptOutsideRoots(t *testing.T) {
	for _, tc := range []struct{ name, tag string }{
		{"absolute", `{% include "SECRET" %}`},
		{"dotdot", `{% include "../../secret.txt" %}`},
		{"parent", `{% extends "../../secret.txt" %}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := hostileRunDir(t, "", "fine")
			secret := filepath.Join(dir, "secret.txt")
			if err := os.WriteFile(secret, []byte("TOPSECRET\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			prompt := strings.ReplaceAll(tc.tag, "SECRET", secret)
			if err := os.WriteFile(filepath.Join(dir, "s", "prompts", "q.md"), []byte("Answer. "+prompt), 0o644); err != nil {
				t.Fatal(err)
			}
			out, errOut, code := hostile(t, dir, "run", "s", "--cassette", "c.yaml", "--trace", "t.jsonl")
			if code != exitFinding {
				t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
			}
			for _, want := range []string{"q.md", "is refused", "roots: "} {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			tr, _ := os.ReadFile(filepath.Join(dir, "t.jsonl"))
			if strings.Contains(out+errOut+string(tr), "TOPSECRET") {
				t.Fatalf("the outside file reached the output or the trace:\n%s%s\n%s", out, errOut, tr)
			}
			// validate reports it as an error too.
			vout, verr, vcode := hostile(t, dir, "validate", "s")
			if vcode != exitFinding || !strings.Contains(vout, "error: ") || !strings.Contains(vout, "is refused") {
				t.Fatalf("validate: exit %d\n%s%s", vcode, vout, verr)
			}
		})
	}
}

func TestHostileRunStoryPaths(t *testing.T) {
	dir := hostileRunDir(t, "Say hi.", "fine")
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"run", "nosuch.yaml"}, []string{"nosuch.yaml: no such file or directory"}},
		{[]string{"run", "adir"}, []string{"adir: not a story directory (no app.yaml)"}},
		{[]string{"run", "-"}, []string{"-: stories are not read from standard input", "pass the story directory or its app.yaml"}},
		{[]string{"mcp", "serve", "adir"}, []string{"adir: not a story directory (no app.yaml)"}},
		{[]string{"mcp", "serve", "nosuch"}, []string{"nosuch: no such file or directory"}},
		{[]string{"mcp", "serve", "-"}, []string{"-: stories are not read from standard input"}},
		{[]string{"plugins", "-"}, []string{"-: stories are not read from standard input"}},
		{[]string{"run", "s", "--trace", "adir"}, []string{`kitsoki: --trace: create "adir": is a directory`}},
		{[]string{"mcp", "serve", "s", "--trace", "adir"}, []string{`kitsoki: --trace: create "adir": is a directory`}},
	}
	for _, tc := range cases {
		_, errOut, code := hostile(t, dir, tc.args...)
		if code != exitUsageEnv {
			t.Errorf("kitsoki %v: exit %d, want 2\n%s", tc.args, code, errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("kitsoki %v: stderr lacks %q:\n%s", tc.args, w, errOut)
			}
		}
		if strings.Contains(errOut, "trace: trace:") || strings.Contains(errOut, "[io]") {
			t.Errorf("kitsoki %v: %s", tc.args, errOut)
		}
	}
}

func TestHostileRunFlagFiles(t *testing.T) {
	dir := hostileRunDir(t, "Say hi.", "fine")
	if err := os.WriteFile(filepath.Join(dir, "l.yaml"), []byte("- a\n- b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "s", "--world-file", "l.yaml"}, "--world-file l.yaml: "}, // the wording is pkg/engine's TestLoadWorldFileErrors'
		{[]string{"run", "s", "--world-file", "nosuch"}, "--world-file nosuch: no such file"},
		{[]string{"run", "s", "--world-file", "adir"}, "--world-file adir: is a directory"},
		{[]string{"run", "s", "--cassette", "nosuch"}, "kitsoki: --cassette: nosuch: no such file\n"},
		{[]string{"run", "s", "--host-cassette", "nosuch"}, "kitsoki: --host-cassette: nosuch: no such file\n"},
		{[]string{"run", "s", "--profile", "nosuch"}, "--profile nosuch: the plugin profile cannot be read: no such file or directory"},
		{[]string{"plugins", "s", "--profile", "nosuch"}, "--profile nosuch: the plugin profile cannot be read: no such file or directory"},
		{[]string{"mcp", "serve", "s", "--profile", "nosuch", "--trace", "m.jsonl"}, "--profile nosuch: the plugin profile cannot be read: no such file or directory"},
	}
	for _, tc := range cases {
		_, errOut, code := hostile(t, dir, tc.args...)
		if code != exitUsageEnv || !strings.Contains(errOut, tc.want) {
			t.Errorf("kitsoki %v: exit %d, want 2 and %q:\n%s", tc.args, code, tc.want, errOut)
		}
		if strings.Contains(errOut, dir) || strings.Contains(errOut, "malformed") || strings.Contains(errOut, "unmarshal") {
			t.Errorf("kitsoki %v: absolute path or Go-internal text:\n%s", tc.args, errOut)
		}
	}
}
