package agent

import (
	"os"
	"strings"
	"testing"
)

// A tab before a key of a flow mapping refuses a host cassette at its
// place, as upstream's parser does (probe /tmp/hunt97/tab/sub1: `load
// cassette: cassette: parse "…/tapes/c.yaml": tab character cannot use as
// a map key directly`); one after a line break is a space.
func TestLoadCassetteFlowKeyTab(t *testing.T) {
	t.Chdir(t.TempDir())
	for name, src := range map[string]string{
		"bad.yaml": "kind: host_cassette\nepisodes:\n  - {id: r,\tmatch: {handler: host.run}}\n",
		"ok.yaml":  "kind: host_cassette\nepisodes:\n  - {id: r,\n\tmatch: {handler: host.run}}\n",
	} {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadCassette("bad.yaml"); err == nil || !strings.Contains(err.Error(), "bad.yaml:3:13: a tab before this key") {
		t.Errorf("bad.yaml: %v", err)
	}
	if _, err := LoadCassette("ok.yaml"); err != nil {
		t.Errorf("ok.yaml: %v", err)
	}
}
