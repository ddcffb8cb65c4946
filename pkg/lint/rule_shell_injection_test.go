package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// shellInjections is the rule shell-injection's findings of the story in dir.
func shellInjections(t *testing.T, dir string) []diag.Diagnostic {
	t.Helper()
	_, ds := Load(dir, story.Options{LookupEnv: noEnv})
	var got []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == ruleShellInjection.ID {
			got = append(got, d)
		}
	}
	return got
}

// TestShellInjectionGoldens pins rule shell-injection's findings
// (testdata/shell-injection/<case>/): flagged holds one untrusted source
// per call (a slot, a bound key, keys set from it, a shell: true args
// element, an event, a job's result), clean the forms the rule accepts
// beside one finding, import a child key world_in sets from a slot, scopes
// taint kept to the keys the fold shares (a child's declared key is its
// own, an undeclared one and world["k"] the importer's; the runtime's
// sharing is recorded in scopes-runtime/), slots the slots whose values a
// run holds to values: (slots-runtime/) and those it does not.
// Regenerate with -run ShellInjectionGoldens -update.
func TestShellInjectionGoldens(t *testing.T) {
	for _, name := range []string{"flagged", "clean", "import", "scopes", "slots"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", "shell-injection", name)
			got := shellInjections(t, dir)
			if len(got) == 0 {
				t.Fatalf("%s: no %s finding", dir, ruleShellInjection.ID)
			}
			checkGoldenAt(t, filepath.Join(dir, "expect.golden"), got)
		})
	}
}

// TestShellInjectionIgnore: a # kitsoki:ignore shell-injection comment
// silences the finding under it and no other.
func TestShellInjectionIgnore(t *testing.T) {
	got := shellInjections(t, filepath.Join("testdata", "shell-injection", "ignore"))
	if len(got) != 2 {
		t.Fatalf("want 2 findings before the ignore comments apply, got %v", got)
	}
	kept := diag.FilterIgnored(got, func(f string) ([]byte, bool) {
		b, err := os.ReadFile(f)
		return b, err == nil
	})
	if len(kept) != 1 || kept[0].Line != got[1].Line {
		t.Fatalf("want only the second finding kept, got %v", kept)
	}
}

// TestTemplateReads: the reads the rule weighs in one scalar, with the
// byte offset of each root.
func TestTemplateReads(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`echo {{ slots.text }}`, []string{"slots.text@8"}},
		{`{{ slots?.a["b"].c | lower }}`, []string{"slots.a.b.c@3"}},
		{`{{ world.k }} {{ world["k2"] }} {{ world }} {{ myworld.x }}`, []string{"world.k@3", "world.k2@17"}},
		{`{{ "slots.text" }} {# {{ slots.x }} #} {{ x.slots }}`, nil},
		{`{{ if slots.a }}{{ else if event.b }}{{ end }}{% if result.c %}{% elif inbox %}{% endif %}`, nil},
		{`{{ if slots.a { slots.b } else { "" } }}`, []string{"slots.a@6", "slots.b@16"}},
		{`{% for x in event.items %}{{ x }}{% endfor %}`, []string{"event.items@12"}},
		{`{{ inbox }} {{ result.stdout`, []string{"inbox@3", "result.stdout@15"}},
	} {
		var got []string
		for _, r := range templateReads(tc.src) {
			got = append(got, r.text+"@"+itoa(r.off))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("templateReads(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// FuzzTemplateReads: any scalar scans without a panic, and each read's
// offset is where its root's name stands.
func FuzzTemplateReads(f *testing.F) {
	for _, s := range []string{`echo {{ slots.text }}`, `{{ world["k`, `{% if "}}" %}{{ result.a?.b }}`, `{#`, `{{ '\`, "{{ event.\xff }}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, r := range templateReads(src) {
			if !strings.HasPrefix(src[r.off:], r.root) {
				t.Fatalf("read %q at %d: %q is not its root", r.text, r.off, src[r.off:])
			}
		}
	})
}

// TestShellScriptArg: the script operand of a shell's -c in argv mode,
// with combined flags, other options before it and a path or .exe cmd;
// nothing for a script file, a -- or a program that is not a shell.
func TestShellScriptArg(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		args []any
		at   int
		ok   bool
	}{
		{"bash", []any{"-c", "S"}, 1, true},
		{"/bin/sh", []any{"-e", "-o", "pipefail", "+x", "-c", "S"}, 5, true},
		{"/usr/bin/env", []any{"bash", "-c", "S"}, 0, false},
		{"sh", []any{"-ec", "S", "sh", "V"}, 1, true},
		{`C:\tools\bash.exe`, []any{"-lc", "S"}, 1, true},
		{"zsh", []any{"script.zsh", "-c"}, 0, false},
		{"bash", []any{"--", "-c", "S"}, 0, false},
		{"bash", []any{"-c"}, 0, false},
		{"python", []any{"-c", "S"}, 0, false},
	} {
		at, _, ok := shellScriptArg(map[string]any{"cmd": c.cmd, "args": c.args})
		if ok != c.ok || ok && at != c.at {
			t.Errorf("%s %v: got (%d, %v), want (%d, %v)", c.cmd, c.args, at, ok, c.at, c.ok)
		}
	}
}
