package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/coverage"
	"kitsoki/pkg/engine"
)

const coveredStory = `app: {id: covered}
root: a
intents: {go: {}, back: {}}
states:
  a:
    on:
      go: [{target: b}]
  b:
    on:
      back: [{target: a}]
`

// writeProfile writes .kitsoki/coverage.json under root with the arc
// into b (line 7) reached n times and the arc back (line 10) never.
func writeProfile(t *testing.T, root string, n int64) string {
	t.Helper()
	p := &coverage.Profile{Files: []*coverage.File{{Path: "story/app.yaml", Items: []coverage.Item{
		{Kind: engine.ReachState, Line: 5, Col: 3, State: "a", Label: "a", Count: 1},
		{Kind: engine.ReachArc, Line: 7, Col: 12, State: "a", Label: "on go → b", Count: n},
		{Kind: engine.ReachState, Line: 8, Col: 3, State: "b", Label: "b", Count: n},
		{Kind: engine.ReachArc, Line: 10, Col: 14, State: "b", Label: "on back → a", Count: 0},
	}}}}
	var b bytes.Buffer
	if err := coverage.WriteJSON(&b, p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, filepath.FromSlash(coverage.EditorProfile))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// hints are the coverage hints of a publish, as "line message".
func hints(p published) []string {
	var out []string
	for _, d := range p.Diagnostics {
		if d.Code == coverRule {
			out = append(out, fmt.Sprintf("%02d %s", d.Range.Start.Line+1, d.Message))
			if d.Severity != int(protocol.DiagnosticSeverityHint) {
				out = append(out, "not a hint")
			}
		}
	}
	return out
}

// A profile beside the story shows what no fixture reached as hints; the
// client is asked to watch profiles, and a changed profile (reported by
// the client, or found at the next check) refreshes them; an edited
// buffer shows none (its lines may have moved).
func TestCoverageHints(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{"story/app.yaml": coveredStory})
	manifest := filepath.Join(root, "story", "app.yaml")
	prof := writeProfile(t, root, 0)
	var caps protocol.ClientCapabilities
	if err := json.Unmarshal([]byte(`{"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}`), &caps); err != nil {
		t.Fatal(err)
	}
	c := startInProcessCaps(t, Options{}, caps)
	c.WaitCall("client/registerCapability")
	text := open(c, manifest)
	want := []string{"07 never reached by a fixture (arc on go → b)", "08 never reached by a fixture (state b)", "10 never reached by a fixture (arc on back → a)"}
	got := c.waitUntil(manifest, func(p published) bool { return len(hints(p)) > 0 })
	if !slices.Equal(hints(got), want) {
		t.Fatalf("hints %q, want %q", hints(got), want)
	}
	// the fixtures now reach b: the client reports the new profile
	writeProfile(t, root, 3)
	c.Notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: pathURI(prof), Type: 2}}})
	got = c.waitUntil(manifest, func(p published) bool { return len(hints(p)) == 1 })
	if h := hints(got); h[0] != "10 never reached by a fixture (arc on back → a)" {
		t.Fatalf("after the change: %q", h)
	}
	// an edited buffer no longer matches the profile's lines
	change(c, manifest, "# moved\n"+text, 2)
	c.waitUntil(manifest, func(p published) bool { return p.Version != nil && *p.Version == 2 && len(hints(p)) == 0 })
	// back as the file is: the hints return
	change(c, manifest, text, 3)
	c.waitUntil(manifest, func(p published) bool { return p.Version != nil && *p.Version == 3 && len(hints(p)) == 1 })
	// a broken profile turns them off (and is logged, not shown as a finding)
	if err := os.WriteFile(prof, []byte(`{"kitsoki_coverage": 9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	change(c, manifest, text, 4)
	c.waitUntil(manifest, func(p published) bool { return p.Version != nil && *p.Version == 4 && len(hints(p)) == 0 })
}

// TestCoverageProfileThroughSymlinkOutIsRefusedUnread: a repository's
// .kitsoki/coverage.json that is a symlink leading out of the directory
// holding it is refused unread, so the log line that turns the hints off
// cannot quote the file it points at.
func TestCoverageProfileThroughSymlinkOutIsRefusedUnread(t *testing.T) {
	outside := storytest.TempTree(t, map[string]string{"secret.json": `{"CANARYcover": 1}`})
	root := storytest.TempTree(t, map[string]string{"story/app.yaml": coveredStory})
	prof := filepath.Join(root, filepath.FromSlash(coverage.EditorProfile))
	if err := os.MkdirAll(filepath.Dir(prof), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.json"), prof); err != nil {
		t.Fatal(err)
	}
	r, _ := (&coverCache{}).read(prof, root)
	if r == nil || r.err == nil {
		t.Fatalf("read = %+v, want a refusal", r)
	}
	if msg := r.err.Error(); strings.Contains(msg, "CANARY") || !strings.Contains(msg, "symlink") {
		t.Errorf("error %q: want the symlink refused, quoting nothing outside", msg)
	}
}

// A coverage profile above the workspace root (a .kitsoki/coverage.json
// in a parent directory, a shared /tmp or the home directory) is not the
// workspace's: it is neither read nor turned into hints, whose labels
// would quote it, in a workspace holding no profile of its own.
func TestCoverageProfileAboveTheWorkspaceIsNotRead(t *testing.T) {
	root := storytest.TempTree(t, map[string]string{"story/app.yaml": coveredStory})
	manifest := filepath.Join(root, "story", "app.yaml")
	writeProfile(t, root, 0)
	c := startInProcessRoots(t, Options{}, filepath.Join(root, "story"))
	open(c, manifest)
	got := c.waitUntil(manifest, func(published) bool { return true })
	if h := hints(got); len(h) != 0 {
		t.Errorf("hints %q from a profile outside the workspace", h)
	}
}

// The cache keeps the reads of the maxProfiles profiles used last, however
// many projects of a workspace have one; a dropped profile is read again.
func TestCoverCacheBounded(t *testing.T) {
	var c coverCache
	var first, firstRoot string
	for i := range 3 * maxProfiles {
		root := filepath.Join(t.TempDir(), fmt.Sprintf("p%d", i))
		path := writeProfile(t, root, 1)
		if i == 0 {
			first, firstRoot = path, root
		}
		if r, _ := c.read(path, root); r == nil || r.err != nil {
			t.Fatalf("read %s: %+v", path, r)
		}
	}
	if n := len(c.profiles); n > maxProfiles {
		t.Fatalf("%d profiles kept after %d were read; want at most %d", n, 3*maxProfiles, maxProfiles)
	}
	if r, _ := c.read(first, firstRoot); r == nil || r.err != nil || len(r.unreached) == 0 {
		t.Fatalf("a dropped profile read again: %+v", r)
	}
}

// TestCoverageProfileLinkOutTellsNothingOfItsTarget: a hostile workspace
// whose .kitsoki/coverage.json (or .kitsoki/) is a symlink leading out
// gets the same log line and the same hints whether the outside path is a
// profile, absent or a directory: nothing said depends on it, and a
// profile in a directory above (inside the workspace) is not taken
// instead when the target is absent.
func TestCoverageProfileLinkOutTellsNothingOfItsTarget(t *testing.T) {
	outside := storytest.TempTree(t, map[string]string{
		"secret.json":         `{"CANARYcover": 1}`,
		"dir/coverage.json":   `{"CANARYcover": 2}`,
		"empty/keep":          "",
		"dir/sub/placeholder": "",
	})
	cases := []struct{ name, link, to string }{
		{"file", coverage.EditorProfile, filepath.Join(outside, "secret.json")},
		{"absent", coverage.EditorProfile, filepath.Join(outside, "gone.json")},
		{"directory", coverage.EditorProfile, filepath.Join(outside, "dir")},
		{"dotdir", ".kitsoki", filepath.Join(outside, "dir")},
		{"dotdir absent", ".kitsoki", filepath.Join(outside, "empty")},
	}
	var first string
	for _, tc := range cases {
		ws := t.TempDir()
		root := filepath.Join(ws, "proj")
		// a profile above the linked one, inside the workspace
		writeProfile(t, ws, 0)
		manifest := filepath.Join(root, "story", "app.yaml")
		if err := os.MkdirAll(filepath.Dir(manifest), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(manifest, []byte(coveredStory), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(root, filepath.FromSlash(tc.link))
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(tc.to, link); err != nil {
			t.Fatal(err)
		}
		c := startInProcessRoots(t, Options{}, ws)
		open(c, manifest)
		got := c.waitUntil(manifest, func(published) bool { return true })
		said := strings.Join(append(hints(got), c.Logged()...), "\n")
		if strings.Contains(said, "CANARY") || !strings.Contains(said, "symlink leading out") {
			t.Errorf("%s: said %q: want the link refused, quoting nothing outside", tc.name, said)
		}
		said = strings.ReplaceAll(said, ws, "WS")
		said = strings.ReplaceAll(said, filepath.FromSlash(coverage.EditorProfile), "PROFILE")
		if first == "" {
			first = said
		} else if said != first {
			t.Errorf("%s: said %q, but %q for %s", tc.name, said, first, cases[0].name)
		}
	}
}
