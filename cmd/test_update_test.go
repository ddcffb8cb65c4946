package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/unwritable"
)

// driftFlow is failFlow with a comment that must survive: its second
// turn's expectations drifted from what the story does now.
var driftFlow = "# A fixture whose story changed on purpose.\n" + strings.Replace(failFlow,
	"expect_state: b\n    expect_world: { out: bye }", "expect_state: b        # where back leads\n    expect_world: { out: \"bye\" }", 1)

// driftFixed is driftFlow after --update.
var driftFixed = strings.Replace(driftFlow, "expect_state: b        # where back leads\n    expect_world: { out: \"bye\" }",
	"expect_state: a        # where back leads\n    expect_world: { out: \"hi\" }", 1)

func TestUpdateCommandWritesDiffAndSummary(t *testing.T) {
	dir := testStory(t, map[string]string{"a_pass.yaml": passFlow, "drift.yaml": driftFlow})
	path := filepath.Join(dir, "flows", "drift.yaml")
	code, out, errOut := runCmd(t, "test", dir, "--update")
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errOut)
	}
	wantDiff := "--- " + path + "\n+++ " + path + "\n@@ -7,5 +7,5 @@\n" +
		"   - intent: { name: go }\n     expect_state: b\n   - intent: { name: back }\n" +
		"-    expect_state: b        # where back leads\n-    expect_world: { out: \"bye\" }\n" +
		"+    expect_state: a        # where back leads\n+    expect_world: { out: \"hi\" }\n"
	if !strings.Contains(out, wantDiff) {
		t.Errorf("diff missing; got\n%s\nwant\n%s", out, wantDiff)
	}
	if !strings.HasSuffix(out, "1 fixture updated, 2 expectations changed\n") {
		t.Errorf("summary missing:\n%s", out)
	}
	if b, _ := os.ReadFile(path); string(b) != driftFixed {
		t.Errorf("file now\n%s", b)
	}
	// The updated fixtures pass; a second --update has nothing to do.
	if code, out, _ := runCmd(t, "test", dir); code != 0 {
		t.Errorf("kitsoki test after --update: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(t, "test", dir, "--update"); code != 0 || !strings.Contains(out, "0 fixtures updated, 0 expectations changed") || strings.Contains(out, "---") {
		t.Errorf("second --update: exit %d\n%s", code, out)
	}
}

func TestUpdateCommandDryRun(t *testing.T) {
	dir := testStory(t, map[string]string{"drift.yaml": driftFlow})
	path := filepath.Join(dir, "flows", "drift.yaml")
	code, out, _ := runCmd(t, "test", dir, "--update", "--dry-run")
	if code != exitFinding {
		t.Errorf("exit %d, want 1 (the fixtures on disk still fail)\n%s", code, out)
	}
	for _, want := range []string{"+    expect_state: a        # where back leads", "1 fixture would be updated, 2 expectations changed", "--dry-run: no file was changed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != driftFlow {
		t.Errorf("--dry-run changed the file:\n%s", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("--dry-run left files beside the fixture: %v", entries)
	}
}

func TestUpdateCommandRefusals(t *testing.T) {
	rejected := "test_kind: flow\ninitial_state: a\nturns:\n  - intent: { name: locked }\n    expect_state: b\n"
	dir := testStory(t, map[string]string{"drift.yaml": driftFlow, "rejected.yaml": rejected})
	rpath := filepath.Join(dir, "flows", "rejected.yaml")
	code, out, _ := runCmd(t, "test", dir, "--update")
	if code != exitFinding {
		t.Errorf("exit %d, want 1 (a fixture still fails)\n%s", code, out)
	}
	for _, want := range []string{
		"not updated  " + rpath + "  " + rpath + ":4:5: it fails for a reason --update does not rewrite: unexpected validation error: GUARD_FAILED",
		"1 fixture updated, 2 expectations changed, 1 failing fixture not updated",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(rpath); string(b) != rejected {
		t.Errorf("the refused fixture changed:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "flows", "drift.yaml")); string(b) != driftFixed {
		t.Errorf("the other fixture was not updated:\n%s", b)
	}
}

func TestUpdateCommandUsage(t *testing.T) {
	dir := testStory(t, map[string]string{"drift.yaml": driftFlow})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--dry-run"}, "--dry-run goes with --update"},
		{[]string{"--update", "--json", "-"}, "--update cannot go with --json"},
		{[]string{"--update", "--fail-fast"}, "--update cannot go with --fail-fast"},
		{[]string{"--update", "--shard", "1/2"}, "--update cannot go with --shard"},
		{[]string{"--update", "--watch"}, "--update cannot go with --watch"},
		{[]string{"--update", "--cover"}, "--update cannot go with --cover"},
	} {
		code, _, errOut := runCmd(t, append([]string{"test", dir}, c.args...)...)
		if code != exitUsageEnv || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "flows", "drift.yaml")); string(b) != driftFlow {
		t.Errorf("a refused command changed the file")
	}
}

// A fixture reached through a symlink leading out of the project root is
// not written (nor read: discovery refuses it before --update could).
func TestUpdateCommandConfined(t *testing.T) {
	outside := t.TempDir()
	target := filepath.Join(outside, "drift.yaml")
	if err := os.WriteFile(target, []byte(driftFlow), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := testStory(t, map[string]string{})
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "flows", "drift.yaml")); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "test", dir, "--update")
	if code != exitUsageEnv || !strings.Contains(errOut, "leading out of the project root") {
		t.Errorf("exit %d, stderr %q; want 2 and a refusal to read or write outside the root", code, errOut)
	}
	if b, _ := os.ReadFile(target); string(b) != driftFlow {
		t.Errorf("the file outside the root changed:\n%s", b)
	}
}

// An update whose file cannot be written (a full disk, here a flows
// directory where nothing can be created) leaves the fixture as it was,
// names the file and why, and its summary counts nothing as updated.
func TestUpdateCommandUnwritableCountsNothing(t *testing.T) {
	dir := testStory(t, map[string]string{"drift.yaml": driftFlow})
	path := filepath.Join(dir, "flows", "drift.yaml")
	if err := unwritable.Dir(t, filepath.Dir(path)); err != nil {
		t.Skipf("needs a flows directory nobody can write: %v", err)
	}
	code, out, errOut := runCmd(t, "test", dir, "--update")
	if code != exitUsageEnv {
		t.Errorf("exit %d, want 2\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, path+": not updated: ") {
		t.Errorf("stderr does not name the file not written:\n%s", errOut)
	}
	if !strings.HasSuffix(out, "0 fixtures updated, 0 expectations changed, 1 file not written (see above)\n") {
		t.Errorf("the summary counts what was not written:\n%s", out)
	}
	if b, _ := os.ReadFile(path); string(b) != driftFlow {
		t.Errorf("the file changed:\n%s", b)
	}
}
