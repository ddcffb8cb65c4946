package agent

import (
	"os"
	"strings"
	"testing"
)

// An !include path is the rest of the line, as upstream reads it
// (conformance cassette-include-path): a "# ..." after it is part of the
// path, so the file looked for is "d.json # note".
func TestCassetteIncludePathTakesTheLine(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("d.json", []byte(`{"v": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "kind: host_cassette\nepisodes:\n  - match: {handler: host.run}\n    response:\n      data: !include d.json # note\n"
	if err := os.WriteFile("c.yaml", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCassette("c.yaml"); err == nil || !strings.Contains(err.Error(), `d.json # note`) {
		t.Errorf("got %v, want the include of \"d.json # note\" refused", err)
	}
}
