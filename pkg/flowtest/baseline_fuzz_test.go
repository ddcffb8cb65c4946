package flowtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kitsoki/internal/testing/refusal"
)

// FuzzReadBaseline: any --baseline file: no panic; a rejection names the
// flag and the file, on one line, without a Go type; one read reads back the same after a write, and each
// fixture it names yields at most one regression line.
func FuzzReadBaseline(f *testing.F) {
	for _, s := range []string{"testdata/intents-conformance/flags/baseline.json", "testdata/intents/probe/baseline.json"} {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{`{"fixtures":{"a::b":1e308,"a::":-1}}`, `{"Fixtures":null,"fixtures":{}}`, `{"fixtures":{"x::y":"1"}}`, `[]`, "\ufeff{}", `{"app_version":1}`} {
		f.Add([]byte(s))
	}
	path := filepath.Join(f.TempDir(), "baseline.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := ReadBaseline(path)
		if err != nil {
			refusal.Names(t, data, err.Error(), "--baseline "+path+": ")
			return
		}
		r := &IntentReport{}
		for k := range b.Fixtures {
			state, id, _ := strings.Cut(k, "::")
			r.Fixtures = append(r.Fixtures, &IntentFixtureReport{State: state, ID: id, PassRate: -2})
		}
		if regs := b.Regressions(r, 0); len(regs) > len(b.Fixtures) {
			t.Fatalf("%d regressions from %d fixtures", len(regs), len(b.Fixtures))
		}
		again, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("baseline read does not write back: %v", err)
		}
		if err := os.WriteFile(path, again, 0o600); err != nil {
			t.Fatal(err)
		}
		b2, err := ReadBaseline(path)
		if err != nil || !reflect.DeepEqual(b, b2) {
			t.Fatalf("round trip: %+v, %v; want %+v", b2, err, b)
		}
	})
}
