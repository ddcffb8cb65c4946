package npminstall

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Dir returns a directory holding files (package.json, package-lock.json
// and the scripts a test runs) with their node_modules installed by npm
// ci, installing it on first use under the user cache, in a directory
// named for name and a hash of files. probe is a path inside it (such as
// "node_modules/mermaid/package.json") whose presence means the install is
// complete. what says what the test needs, for the messages. Dir skips the
// test, saying so, when node or npm is missing.
func Dir(t testing.TB, name, what string, files map[string][]byte, probe string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skipf("node is not installed: %s needs node and npm (apt-get install nodejs npm)", what)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed: %s needs it to install its packages from the npm registry", what)
	}
	h := sha256.New()
	for _, f := range slices.Sorted(maps.Keys(files)) {
		h.Write([]byte(f))
		h.Write(files[f])
	}
	sum := hex.EncodeToString(h.Sum(nil))[:16]
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "kitsoki-test", name+"-"+sum)
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(probe))); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), name+"-install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for f, body := range files {
		if err := os.WriteFile(filepath.Join(tmp, f), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci for %s (from the npm registry, into %s) failed: %v\n%s", what, tmp, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another test process installed it first: use theirs.
		if _, serr := os.Stat(filepath.Join(dir, filepath.FromSlash(probe))); serr != nil {
			t.Fatalf("install %s into %s: %v", what, dir, err)
		}
	}
	return dir
}
