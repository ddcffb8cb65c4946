package validate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// leakStories are pairs of stories whose files are byte-identical in part
// while their findings differ: state leaking from one story into another
// shows up as a wrong or missing finding. Each map is a story directory: file -> content.
var leakStories = map[string]map[string]string{
	// The same fixture text beside two stories: only "lacks" has no state
	// "second", so only its fixture gets flow-unknown-state.
	"has": {
		"app.yaml":        "app: {id: leak}\nroot: first\nintents:\n  go: {}\ninclude: [rooms/*.yaml]\nstates:\n  first:\n    on:\n      go: [{target: second}]\n",
		"rooms/room.yaml": "states:\n  second: {terminal: true}\n",
		"flows/f.yaml":    "test_kind: flow\nname: f\ninitial_state: first\nturns:\n  - intent: go\n    expect_state: second\n",
	},
	"lacks": {
		"app.yaml":        "app: {id: leak}\nroot: first\nintents:\n  go: {}\ninclude: [rooms/*.yaml]\nstates:\n  first:\n    on:\n      go: [{target: done}]\n",
		"rooms/room.yaml": "states:\n  done: {terminal: true}\n",
		"flows/f.yaml":    "test_kind: flow\nname: f\ninitial_state: first\nturns:\n  - intent: go\n    expect_state: second\n",
	},
	// The same include as "has", under a manifest that already declares
	// its state: the collision is this story's alone.
	"collides": {
		"app.yaml":        "app: {id: leak}\nroot: second\ninclude: [rooms/*.yaml]\nstates:\n  second: {terminal: true}\n",
		"rooms/room.yaml": "states:\n  second: {terminal: true}\n",
	},
	// The same broken include twice: each story reports its own syntax
	// error, under its own file name.
	"broken1": {
		"app.yaml":      "app: {id: broken}\nroot: s\ninclude: [inc/*.yaml]\nstates:\n  s: {terminal: true}\n",
		"inc/bad.yaml":  "states:\n  t: [unclosed\n",
		"flows/f.yaml":  "test_kind: flow\nname: f\nturns: [\n",
		"flows/ok.yaml": "test_kind: flow\nname: ok\nturns:\n  - intent: nope\n",
	},
	"broken2": {
		"app.yaml":     "app: {id: broken}\nroot: s\ninclude: [inc/*.yaml]\nstates:\n  s: {terminal: true}\n",
		"inc/bad.yaml": "states:\n  t: [unclosed\n",
	},
	// Templates and schemas that fail, in both copies: a compile is
	// skipped only for a source that compiled clean before, so each copy
	// reports its own failures (their messages name the copy's files).
	"tplbad": {
		"app.yaml":       tplApp,
		"prompts/p.md":   "Hello {% for %}\n",
		"schemas/v.json": `{"type": "objec"}`,
	},
	"tplgood": {
		"app.yaml":       strings.Replace(tplApp, `{% if %}broken`, `{% if world.x %}fine{% endif %}`, 1),
		"prompts/p.md":   "Hello {{ world.name }}\n",
		"schemas/v.json": `{"type": "object"}`,
	},
	// An importer and a story that is also imported: the child is parsed
	// once and checked in each importer's context.
	"importer": {
		"app.yaml":        "app: {id: importer}\nroot: start\nintents:\n  go: {}\nimports:\n  kid: {source: ./kid, entry: idle}\nstates:\n  start:\n    on:\n      go: [{target: kid}]\n",
		"kid/app.yaml":    "app: {id: kid}\nroot: idle\nintents:\n  fin: {}\nstates:\n  idle:\n    on:\n      fin: [{target: end}]\n  end: {terminal: true}\n",
		"flows/f.yaml":    "test_kind: flow\nname: f\nturns:\n  - intent: go\n    expect_state: kid.idle\n",
		"kid/flows/f.yml": "not a fixture\n",
	},
}

const tplApp = `app: {id: tpl}
root: s
states:
  s:
    on_enter:
      - say: "{% if %}broken"
      - say: "{{ world.ok }} fine"
      - invoke: host.agent.task
        with:
          prompt: prompts/p.md
          schema: schemas/v.json
    terminal: true
`

// leakCorpus writes two copies (a/ and b/) of the story corpus of this
// module, of the shared upstream corpus when present and of leakStories
// below one directory, and returns that directory and the app.yaml files.
func leakCorpus(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	for _, copyName := range []string{"a", "b"} {
		storytest.CopyTree(t, corpus, filepath.Join(dir, copyName, "module"))
		if _, err := os.Stat(sharedCorpus); err == nil {
			storytest.CopyTree(t, sharedCorpus, filepath.Join(dir, copyName, "shared"))
		}
		for name, files := range leakStories {
			storytest.WriteTree(t, filepath.Join(dir, copyName, "leak", name), files)
		}
	}
	// One file differs between the copies: b's routing-demo manifest has an
	// unknown key, so a tree kept from a's must not be used for it.
	m := filepath.Join(dir, "b", "module", "routing-demo", "app.yaml")
	b, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(m, append(b, []byte("\nbogus_key_only_in_b: 1\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Expand([]string{dir + "/..."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return dir, files
}

func renderResult(res Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s [%s] %v\n", d, d.Rule, d.Severity)
	}
	for _, f := range res.Files {
		fmt.Fprintf(&b, "%s invalid=%v\n", f, res.Invalid[f])
	}
	return b.String()
}

// The child process of TestCacheSharesNothingBetweenStories: validates the
// files named in $KITSOKI_VALIDATE_FILES and prints the result.
func TestHelperValidateProcess(t *testing.T) {
	list := os.Getenv("KITSOKI_VALIDATE_FILES")
	if list == "" {
		t.Skip("helper process only")
	}
	res := Run(strings.Split(list, "\n"), Options{Story: story.Options{AllowUnsetEnv: true}, Flows: true})
	fmt.Print("BEGIN\n" + renderResult(res) + "END\n")
}

// Validating a corpus again and again in one process gives exactly what
// two separate processes give, whatever the number of workers (--jobs 1,
// 2, 3 and 8, each run after the one before in the same process; two
// copies of every story, so workers share a story's files); and a story
// checked among many gets exactly the findings it gets alone: nothing
// carries one story's state into another, and the findings, their order
// and the verdicts do not depend on which worker checks which story.
func TestCacheSharesNothingBetweenStories(t *testing.T) {
	root, files := leakCorpus(t)
	opts := Options{Story: story.Options{AllowUnsetEnv: true}, Flows: true}
	separate := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperValidateProcess$")
		cmd.Env = append(os.Environ(), "KITSOKI_VALIDATE_FILES="+strings.Join(files, "\n"))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("helper process: %v\n%s", err, out)
		}
		s := string(out)
		begin, end := strings.Index(s, "BEGIN\n"), strings.LastIndex(s, "END\n")
		if begin < 0 || end < begin {
			t.Fatalf("helper process printed no result:\n%s", s)
		}
		return s[begin+len("BEGIN\n") : end]
	}
	process1, process2 := separate(), separate()
	if process1 != process2 {
		t.Fatalf("two processes disagree:\n%s\n---\n%s", process1, process2)
	}
	var first string
	for i, jobs := range []int{1, 2, 3, 8} {
		o := opts
		o.Jobs = jobs
		got := renderResult(Run(files, o))
		if i == 0 {
			first = got
		}
		if got != process1 {
			t.Errorf("run %d in one process (--jobs %d) differs from a separate process:\n%s", i+1, jobs, lineDiff(process1, got))
		}
	}

	// Each story alone gets the findings it gets
	// among all the others.
	var alone []diag.Diagnostic
	invalid := map[string]bool{}
	for _, f := range files {
		res := Run([]string{f}, opts)
		alone = append(alone, res.Diagnostics...)
		for k, v := range res.Invalid {
			invalid[k] = v
		}
	}
	if got, want := renderResult(Result{Files: files, Diagnostics: diag.Sort(alone), Invalid: invalid}), first; got != want {
		t.Errorf("stories checked alone differ from checked together:\n%s", lineDiff(want, got))
	}

	// Copy b says of each story what copy a says (its own paths in
	// place of a's), but for the one manifest that differs.
	aDir, bDir := filepath.Join(root, "a")+string(filepath.Separator), filepath.Join(root, "b")+string(filepath.Separator)
	var fromA, fromB []string
	for _, line := range strings.Split(first, "\n") {
		switch {
		case strings.Contains(line, "routing-demo"):
		case strings.HasPrefix(line, aDir):
			fromA = append(fromA, strings.ReplaceAll(line, aDir, bDir))
		case strings.HasPrefix(line, bDir):
			fromB = append(fromB, line)
		}
	}
	if len(fromA) == 0 || strings.Join(fromA, "\n") != strings.Join(fromB, "\n") {
		t.Errorf("copy b's findings differ from copy a's:\n%s", lineDiff(strings.Join(fromA, "\n"), strings.Join(fromB, "\n")))
	}

	// The leak stories' findings are the ones each should have.
	for _, want := range []struct {
		file, rule string
		present    bool
	}{
		{"a/leak/lacks/flows/f.yaml", "flow-unknown-state", true},
		{"b/leak/lacks/flows/f.yaml", "flow-unknown-state", true},
		{"a/leak/has/flows/f.yaml", "flow-unknown-state", false},
		{"b/leak/has/flows/f.yaml", "flow-unknown-state", false},
		{"a/leak/collides/rooms/room.yaml", "include", true},
		{"a/leak/has/rooms/room.yaml", "include", false},
		{"a/leak/broken1/inc/bad.yaml", "yaml-syntax", true},
		{"b/leak/broken2/inc/bad.yaml", "yaml-syntax", true},
		{"b/module/routing-demo/app.yaml", "unknown-key", true},
		{"a/module/routing-demo/app.yaml", "unknown-key", false},
		{"a/leak/tplbad/app.yaml", "pongo", true},
		{"b/leak/tplbad/app.yaml", "pongo", true},
		{"a/leak/tplbad/app.yaml", "schema", true},
		{"b/leak/tplbad/app.yaml", "schema", true},
		{"a/leak/tplgood/app.yaml", "pongo", false},
		{"b/leak/tplgood/app.yaml", "schema", false},
	} {
		found := false
		for _, line := range strings.Split(first, "\n") {
			if strings.Contains(line, string(filepath.Separator)+want.file+":") && strings.Contains(line, "["+want.rule+"]") {
				found = true
			}
		}
		if found != want.present {
			t.Errorf("%s: rule %s reported=%v, want %v", want.file, want.rule, found, want.present)
		}
	}
}

// lineDiff lists the lines only one of two renderings has.
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	if b.Len() == 0 {
		return "(same lines, different order)"
	}
	return b.String()
}
