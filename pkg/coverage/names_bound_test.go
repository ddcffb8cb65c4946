package coverage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every item names its state, so an item keeps at most maxName bytes of
// it (and of its label), then a hash of the whole: a state of 100,000
// characters with 2,000 arms (a 276 KB story) made the JSON profile and
// -v's list 200 MB each (here 20,000 and 500: 10 MB).
func TestItemsKeepLongNamesClipped(t *testing.T) {
	long := strings.Repeat("n", 20_000)
	var b strings.Builder
	b.WriteString("app: {id: long}\nintents:\n")
	for j := range 500 {
		fmt.Fprintf(&b, "  i%d: {}\n", j)
	}
	fmt.Fprintf(&b, "root: b\nstates:\n  b:\n    on:\n      i0: [{target: b}]\n  ? %s\n  :\n    on:\n", long)
	for j := range 500 {
		fmt.Fprintf(&b, "      i%d: [{target: b}]\n", j)
	}
	dir := t.TempDir()
	app := filepath.Join(dir, "app.yaml")
	fixture := "test_kind: flow\napp: long\ninitial_state: b\nturns:\n  - intent: {name: i0, slots: {}}\n    expect_state: b\n"
	if err := os.WriteFile(app, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "flows", "a.yaml"), []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	p := runCovered(t, dir, app)
	for name, out := range formats(t, p) {
		if len(out) > 1<<20 {
			t.Errorf("%s: %d bytes, want under 1 MiB", name, len(out))
		}
	}
	var list bytes.Buffer
	WriteUnreachedHints(&list, p, nil, dir)
	if list.Len() > 1<<20 {
		t.Errorf("the unreached list: %d bytes, want under 1 MiB", list.Len())
	}
	if want := "(in " + clipName(long) + ")"; !strings.Contains(list.String(), want) {
		t.Errorf("no %q in the unreached list", want[:min(len(want), 300)])
	}
}

// A clipped name keeps its first bytes whole (never half a character) and
// two long names with one beginning stay two.
func TestClipName(t *testing.T) {
	a, b := strings.Repeat("é", 200)+"a", strings.Repeat("é", 200)+"b"
	ca, cb := clipName(a), clipName(b)
	if ca == cb {
		t.Errorf("two names clipped to one: %q", ca)
	}
	if !strings.HasPrefix(ca, strings.Repeat("é", 128)+"…#") || len(ca) > maxName+16 {
		t.Errorf("clipped: %q", ca)
	}
	if s := strings.Repeat("x", maxName); clipName(s) != s {
		t.Error("a name of maxName bytes was clipped")
	}
}
