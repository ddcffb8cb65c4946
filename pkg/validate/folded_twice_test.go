package validate

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// A child checked on its own and inside its importer in one run reports
// each of its errors once, in its own names; alone, the importer's check
// names the folded place (`state "kid.a"`), and the importer is invalid
// either way. An error only the fold finds at the same line stays.
func TestRunChildCheckedTwiceReportsOnce(t *testing.T) {
	dir := t.TempDir()
	parent := filepath.Join(dir, "app.yaml")
	kid := filepath.Join(dir, "kid", "app.yaml")
	storytest.WriteFile(t, parent, "app: {id: p}\nintents: {go: {}}\nimports:\n  kid: {source: ./kid, exits: {done: {to: s}}}\nroot: s\nstates:\n  s:\n    on:\n      go: [{target: kid}]\n")
	storytest.WriteFile(t, kid, "app: {id: k}\nintents: {go2: {}}\nexits: {done: {}}\nmeta_modes:\n  g.t: {group: g, trigger: t}\nroot: a\nstates:\n  a:\n    on:\n      go2: [{target: \"@exit:done\", effects: [{background: true}]}]\n")
	files, err := Expand([]string{dir + "/..."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := Run(files, Options{Jobs: 2})
	want := []string{
		`meta_mode "g.t": agent is required`,
		`meta_mode "kid__g.t": group "g" does not match key prefix "kid__g"`, // the fold's only
		`state "a" intent "go2" effects[0]:`,
	}
	if len(res.Diagnostics) != len(want) {
		t.Fatalf("both stories: want %q; got %v", want, res.Diagnostics)
	}
	for i, w := range want {
		if !strings.HasPrefix(res.Diagnostics[i].Message, w) {
			t.Errorf("both stories: finding %d: %v, want %q", i, res.Diagnostics[i], w)
		}
	}
	if !res.Invalid[parent] || !res.Invalid[kid] {
		t.Errorf("invalid = %v, want both", res.Invalid)
	}
	res = Run([]string{parent}, Options{})
	if len(res.Diagnostics) != 3 || !strings.HasPrefix(res.Diagnostics[2].Message, `state "kid.a" intent "kid__go2" effects[0]:`) || res.Diagnostics[2].File != kid {
		t.Errorf("the importer alone: want the folded place at the child's line; got %v", res.Diagnostics)
	}
}

// A child's error in a file it includes (include:), with the child and its
// importers checked in one run, is reported once, in the child's own
// names: the child's included files are its own as its story file is,
// one level down or two (kid, mid/deep).
func TestRunChildIncludeCheckedTwiceReportsOnce(t *testing.T) {
	const importer = "app: {id: p}\nintents: {go: {}}\nimports:\n  %[1]s: {source: ./%[1]s, exits: {done: {to: %[2]s}}}\n%[3]sroot: s\nstates:\n  s:\n    on:\n      go: [{target: %[1]s}]\n"
	for _, kid := range []string{"kid", "mid/deep"} {
		dir := t.TempDir()
		storytest.WriteFile(t, filepath.Join(dir, "app.yaml"), fmt.Sprintf(importer, strings.Split(kid, "/")[0], "s", ""))
		if mid, deep, ok := strings.Cut(kid, "/"); ok {
			storytest.WriteFile(t, filepath.Join(dir, mid, "app.yaml"), fmt.Sprintf(importer, deep, `"@exit:done"`, "exits: {done: {}}\n"))
		}
		storytest.WriteFile(t, filepath.Join(dir, kid, "app.yaml"), "app: {id: k}\nintents: {go2: {}}\nexits: {done: {}}\ninclude: [more.yaml]\nroot: a\nstates:\n  a:\n    on:\n      go2: [{target: b}]\n")
		storytest.WriteFile(t, filepath.Join(dir, kid, "more.yaml"), "states:\n  b:\n    on:\n      go2: [{target: \"@exit:done\", effects: [{background: true}]}]\n")
		files, err := Expand([]string{dir + "/..."}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := Run(files, Options{Jobs: 2})
		if len(res.Diagnostics) != 1 || !strings.HasPrefix(res.Diagnostics[0].Message, `state "b" intent "go2" effects[0]:`) {
			t.Errorf("%s: want the child's one error, in its own names; got %v", kid, res.Diagnostics)
		}
		if len(res.Invalid) != len(files) {
			t.Errorf("%s: invalid = %v, want all of %v", kid, res.Invalid, files)
		}
	}
}
