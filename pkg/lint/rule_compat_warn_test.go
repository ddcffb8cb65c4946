package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// diagTexts loads the story at path and returns its diagnostics of rule.
func diagTexts(t *testing.T, path, rule string) []string {
	t.Helper()
	_, ds := Load(path, story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == rule {
			got = append(got, d.String())
		}
	}
	return got
}

// The existing engine refuses YAML integers in host.run's timeout and args
// (pkg/host/testdata/conformance/run-int-literals); validate says so at the
// call, with the quoted spelling that runs on both engines, and stays
// quiet on that spelling (run-int-quoted) and on other handlers.
func TestHostRunIntsWarn(t *testing.T) {
	lit := filepath.Join("..", "host", "testdata", "conformance", "run-int-literals", "app.yaml")
	got := diagTexts(t, lit, "host-run-int")
	if len(got) != 2 {
		t.Fatalf("got %d host-run-int diagnostics, want 2:\n%s", len(got), strings.Join(got, "\n"))
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{`warning: state "idle" intent "go"`, `timeout: 30 is a YAML integer`, `write timeout: "30s"`, `args[1]: 3 is a YAML integer`, `quote it ("3")`} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	quoted := filepath.Join("..", "host", "testdata", "conformance", "run-int-quoted", "app.yaml")
	if got := diagTexts(t, quoted, "host-run-int"); len(got) != 0 {
		t.Errorf("quoted values warned:\n%s", strings.Join(got, "\n"))
	}
	// a template reading a world key whose default is one, and an imported
	// child's literals (run-int-world, refused upstream) warn, with a
	// spelling both run; a negative one, a computed one, one in an
	// on_complete chain and those spellings (run-int-agree, run on both) do
	// not
	world := filepath.Join("..", "host", "testdata", "conformance", "run-int-world", "app.yaml")
	all = strings.Join(diagTexts(t, world, "host-run-int"), "\n")
	for _, want := range []string{
		`intent "args" effects[0]: host.run args[1]: {{ world.n }} (world.n, while it holds its default 3`, `write "{{ string(world.n) }}"`,
		`intent "tmo" effects[0]: host.run timeout: {{ world.n }} (world.n`, `write timeout: "{{ world.n }}s"`,
		`intent "cgo" effects[0]: host.run args[1]: 3 is a YAML integer`, `intent "cgo" effects[0]: host.run timeout: 30`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("run-int-world: missing %q in:\n%s", want, all)
		}
	}
	agree := filepath.Join("..", "host", "testdata", "conformance", "run-int-agree", "app.yaml")
	if got := diagTexts(t, agree, "host-run-int"); len(got) != 0 {
		t.Errorf("forms both engines run warned:\n%s", strings.Join(got, "\n"))
	}
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: other}
root: a
hosts: [host.inbox.add]
intents: {go: {}}
states:
  a:
    on:
      go: [{target: ., effects: [{invoke: host.inbox.add, with: {timeout: 30, args: [1]}}]}]
`)
	if got := diagTexts(t, dir, "host-run-int"); len(got) != 0 {
		t.Errorf("another handler warned:\n%s", strings.Join(got, "\n"))
	}
}

// The existing engine reads a grand-child's extends: layout from the
// top-level alias's directory (pkg/fold/testdata/conformance/view-root);
// validate names both files at the grand-child's view, only when checking
// the top story.
func TestViewRootWarn(t *testing.T) {
	base := filepath.Join("..", "fold", "testdata", "conformance", "view-root")
	got := diagTexts(t, filepath.Join(base, "parent", "app.yaml"), "view-root")
	if len(got) != 1 {
		t.Fatalf("got %d view-root diagnostics, want 1:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, want := range []string{"gkid/app.yaml:10:7: warning:", `state "deep"`, "read from ../child/views/base.pongo", "not from this story's ../gkid/views/base.pongo", `top-level import ("kid")`} {
		if !strings.Contains(got[0], want) {
			t.Errorf("missing %q in %s", want, got[0])
		}
	}
	for _, top := range []string{"child", "gkid"} {
		if got := diagTexts(t, filepath.Join(base, top, "app.yaml"), "view-root"); len(got) != 0 {
			t.Errorf("%s checked alone warned:\n%s", top, strings.Join(got, "\n"))
		}
	}
}

// Both engines read a host.run timeout string's leading number as seconds
// and ignore the rest, and run a NaN, infinite, sub-nanosecond or huge
// number of seconds with no timeout (pkg/host durationArg, conformance
// host-run-timeout-forms): validate warns on each such spelling, and on
// no Go duration, plain number, template or value the call refuses.
func TestHostRunTimeoutWarn(t *testing.T) {
	warn := map[string]string{
		`"2d"`:           `"2d" is neither a Go duration nor a number of seconds`,
		`"60x"`:          `"60x" is neither`,
		`"30 s"`:         `"30 s" is neither`,
		`"soon"`:         `"soon" is neither`,
		`"NaN"`:          `timeout: "NaN" runs the command with no timeout`,
		`"+Inf"`:         `timeout: "+Inf" runs the command with no timeout`,
		`"9e30"`:         `timeout: "9e30" runs the command with no timeout`,
		`.nan`:           `timeout: NaN runs the command with no timeout`,
		`.inf`:           `timeout: +Inf runs the command with no timeout`,
		`1e-12`:          `timeout: "1e-12" runs the command with no timeout`,
		`0.000000000001`: `timeout: 1e-12 runs the command with no timeout`,
		`""`:             `timeout: a blank string runs the command with no timeout`,
		`" "`:            `timeout: a blank string runs the command with no timeout`,
	}
	quiet := []string{`"1_000"`, `"90s"`, `"1h2m3s"`, `" 20 "`, `"30"`, `"1.5"`, `2.5`, `"-5"`, `"-Inf"`, `"0"`, `"{{ world.t }}s"`, `30`}
	story := func(timeout string) string {
		return `app: {id: t}
hosts: [host.run]
world: {t: {type: string, default: "1"}}
intents: {go: {}}
root: a
states:
  a:
    on:
      go: [{target: ., effects: [{invoke: host.run, with: {cmd: "true", timeout: ` + timeout + `}}]}]
`
	}
	for to, want := range warn {
		dir := t.TempDir()
		write(t, dir, "app.yaml", story(to))
		got := diagTexts(t, dir, "host-run-timeout")
		if len(got) != 1 || !strings.Contains(got[0], want) || !strings.Contains(got[0], "warning:") {
			t.Errorf("timeout: %s: got %q, want one warning containing %q", to, got, want)
		}
	}
	for _, to := range quiet {
		dir := t.TempDir()
		write(t, dir, "app.yaml", story(to))
		if got := diagTexts(t, dir, "host-run-timeout"); len(got) != 0 {
			t.Errorf("timeout: %s warned: %q", to, got)
		}
	}
}

// host.starlark.run refuses a YAML whole number in its inputs as upstream
// does (conformance star-uint64): a literal, one in a list, a world key
// whose default is one warn, on fixtures upstream fails (lit, nest, wn,
// twn, swn); a negative, computed or float input, and one read through
// a slot the story cannot see, do not.
func TestHostRunIntsStarlarkInputs(t *testing.T) {
	star := filepath.Join("..", "engine", "testdata", "conformance", "star-uint64", "app.yaml")
	got := diagTexts(t, star, "host-run-int")
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`intent "lit" effects[0]: host.starlark.run input "v": 3 is a YAML integer`, `write a float (3.0)`,
		`intent "nest" effects[0]: host.starlark.run input "v": 3 (inside the input)`,
		`intent "wn" effects[0]: host.starlark.run input "v": {{ world.n }} (world.n`, `write "{{ world.n + 0 }}"`,
		`intent "twn" effects[0]`, `intent "swn" effects[0]`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if len(got) != 5 {
		t.Errorf("got %d host-run-int diagnostics, want 5:\n%s", len(got), all)
	}
}

// host.run refuses args: that is not a list, and host.video.frame a t_ms:
// that is YAML's uint64, as upstream does (conformance host-run-type-texts
// a1-a4, a6, a7; video-frame-args m1, m4); a templated args (a5, which
// may render a list), a list, a negative or computed t_ms do not warn.
func TestHostRunIntsArgsAndFrame(t *testing.T) {
	texts := filepath.Join("..", "host", "testdata", "conformance", "host-run-type-texts", "app.yaml")
	got := strings.Join(diagTexts(t, texts, "host-run-int"), "\n")
	for _, a := range []string{"a1", "a2", "a3", "a4", "a6", "a7"} {
		if !strings.Contains(got, `intent "`+a+`" effects[0]: host.run args: `) {
			t.Errorf("no args warning for %s in:\n%s", a, got)
		}
	}
	for _, want := range []string{`host.run args: 3 (number) is not a list`, `host.run args: {"a":1} (object) is not a list`, `host.run args: "x" (string) is not a list`, `write args as a list of strings`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, `intent "a5"`) || strings.Contains(got, `intent "e1"`) {
		t.Errorf("a templated args or a list warned:\n%s", got)
	}
	frame := filepath.Join("..", "host", "testdata", "conformance", "video-frame-args", "app.yaml")
	fs := diagTexts(t, frame, "host-run-int")
	all := strings.Join(fs, "\n")
	for _, want := range []string{`intent "m1" effects[0]: host.video.frame t_ms: 3 is a YAML integer`, `write t_ms: "3"`, `intent "m4" effects[0]: host.video.frame t_ms: {{ world.n }} (world.n`} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if len(fs) != 2 {
		t.Errorf("got %d video.frame warnings, want 2:\n%s", len(fs), all)
	}
}
