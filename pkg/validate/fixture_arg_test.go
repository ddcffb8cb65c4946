package validate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExpandRefusesFixture: a flow fixture named where a story is expected
// is refused as one, naming the story it tests and how to run it alone
// (a BOM and CRLF line ends change nothing). Before, validate loaded it as
// a story and reported each fixture key as unknown.
func TestExpandRefusesFixture(t *testing.T) {
	dir := t.TempDir()
	story := filepath.Join(dir, "s")
	write := func(rel, body string) string {
		p := filepath.Join(story, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("app.yaml", "app: {id: s}\nroot: a\nstates: {a: {}}\n")
	flow := write("flows/one.yaml", "\ufeff# a fixture\r\ntest_kind: flow # the kind\r\ninitial_state: a\r\nturns: []\r\n")
	intents := write("intents/two.yaml", "test_kind: \"intents\"\n")
	nested := write("app2.yaml", "app: {id: t}\nmeta:\n  test_kind: flow\nroot: a\nstates: {a: {}}\n")
	for _, tc := range []struct{ path, want string }{
		{flow, flow + ": a test fixture (test_kind: flow), not a story; give the story it tests, " + story + " (`kitsoki test " + story + " --flows flows/one.yaml` runs this fixture alone)"},
		{intents, intents + ": a test fixture (test_kind: intents), not a story; give the story it tests, " + story},
	} {
		_, err := Expand([]string{tc.path}, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Expand(%s): %v\nwant %s", tc.path, err, tc.want)
		}
	}
	// a fixture with no story above it
	lone := filepath.Join(dir, "lone.yaml")
	if err := os.WriteFile(lone, []byte("test_kind: flow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := lone + ": a test fixture (test_kind: flow), not a story; give the directory holding the app.yaml of the story it tests"
	if _, err := Expand([]string{lone}, nil); err == nil || err.Error() != want {
		t.Errorf("Expand(lone): %v\nwant %s", err, want)
	}
	// an indented test_kind is some story's value, not a fixture's key
	if got, err := Expand([]string{nested}, nil); err != nil || len(got) != 1 {
		t.Errorf("Expand(%s) = %v, %v; want the file", nested, got, err)
	}
}
