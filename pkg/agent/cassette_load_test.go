package agent

import (
	"os"
	"testing"
)

// LoadCassette names the file as the user gave it, with the reason only:
// no absolute path, no "open <path>" said twice.
func TestLoadCassetteReadErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("bad.yaml", []byte("kind: nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"nosuch":   "nosuch: no such file",
		"adir":     "adir: is a directory",
		"bad.yaml": `cassette: "bad.yaml": kind must be "host_cassette", got "nope"`,
	} {
		_, err := LoadCassette(path)
		if err == nil || err.Error() != want {
			t.Errorf("LoadCassette(%q) = %v, want %q", path, err, want)
		}
	}
}
