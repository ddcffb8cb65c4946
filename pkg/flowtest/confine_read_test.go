package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/compose"
)

// A file a fixture names is confined when its path is resolved, then read
// through the root it was confined to: a link swapped in on the way after
// the check (here already there when the reader is handed the checked
// path) is refused, never followed. Before, each reader opened the path it
// was given and followed the link out to the secret.
func TestNamedFilesReadThroughRoot(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".kitsoki"), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret.yaml")
	body := "kind: recording\nentries:\n  - {state: " + fixtureCanary + ", input: x, intent: {name: go}}\n"
	if err := os.WriteFile(secret, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(proj, "swapped.yaml")
	if err := os.Symlink("../secret.yaml", link); err != nil {
		t.Fatal(err)
	}
	r := safefile.NewRoot(proj)
	defer r.Close()
	fr := &fixtureRun{r: &Runner{}, fx: &Fixture{File: filepath.Join(proj, "flows", "f.yaml"), Recording: "../swapped.yaml"}}
	for name, read := range map[string]func() error{
		"host_cassette": func() error { _, err := compose.LoadFlowHostCassette(r, link, nil); return err },
		"starlark_http_cassette": func() error {
			_, err := readParsed(fr.httpCassette)(r, link)
			return err
		},
		"recording": func() error { _, err := fr.recording(link, true); return err },
	} {
		err := read()
		if err == nil || !strings.Contains(err.Error(), " out of ") || strings.Contains(err.Error(), fixtureCanary) || strings.Contains(err.Error(), secret) {
			t.Errorf("%s through a link swapped in after the check: %v, want it refused unread", name, err)
		}
	}
}
