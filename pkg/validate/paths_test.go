package validate

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

func touch(t *testing.T, p string) {
	t.Helper()
	storytest.WriteFile(t, p, "app: {id: x}\n")
}

func TestExpandForms(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "a", "app.yaml"))
	touch(t, filepath.Join(dir, "b", "c", "app.yaml"))
	touch(t, filepath.Join(dir, ".hidden", "app.yaml"))
	touch(t, filepath.Join(dir, "other.yaml"))

	got, err := Expand([]string{dir + "/..."})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a", "app.yaml"), filepath.Join(dir, "b", "c", "app.yaml")}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %v want %v", got, want)
	}

	got, err = Expand([]string{filepath.Join(dir, "a"), filepath.Join(dir, "a", "app.yaml"), filepath.Join(dir, "other.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("dedup failed: %v", got)
	}
}

func TestExpandErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ arg, want string }{
		{filepath.Join(dir, "missing"), "no such file or directory"},
		{dir, "not a story directory (no app.yaml); use " + dir + "/... to search below it"},
		{dir + "/...", "no app.yaml found below"},
	} {
		_, err := Expand([]string{tc.arg})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.arg, err, tc.want)
		}
	}
}

func TestExpandDefaultsToCurrentDir(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "app.yaml"))
	t.Chdir(dir)
	got, err := Expand(nil)
	if err != nil || len(got) != 1 || got[0] != "app.yaml" {
		t.Fatalf("got %v %v", got, err)
	}
}
