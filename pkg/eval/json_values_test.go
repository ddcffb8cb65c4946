package eval

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/allocs"
)

// asJSON gives what the JSON round trip gives, or declines: every YAML
// value here, decoded as yaml.v3 decodes into any.
func TestAsJSONIsTheRoundTrip(t *testing.T) {
	for _, src := range []string{
		"{a: 1, b: -0.0, c: 9007199254740993, d: 18446744073709551615, e: 1.5e300, f: 0x1F, g: -9223372036854775808}",
		"{s: plain, q: \"é\\u0000\", n: null, t: true, l: [1, [2, {x: y}], ~]}",
		"{f: .inf}", "{f: .nan}", "{k: {1: a}}", "{d: 2001-12-14}", "{b: !!binary aGk=}",
		"{bad: \"\\xff\"}", "{\"\\xff\": 1}", "{e: {}, l: []}",
	} {
		var raw any
		if err := yaml.Unmarshal([]byte(src), &raw); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, ok := asJSON(raw)
		b, err := json.Marshal(raw)
		var want any
		if err == nil {
			err = json.Unmarshal(b, &want)
		}
		if ok && (err != nil || !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: asJSON %#v, round trip %#v (%v)", src, got, want, err)
		}
		if !ok && strings.Contains(src, "a: 1") {
			t.Errorf("%s: declined", src)
		}
	}
}

// A dataset's large args list is turned into JSON values once, not
// marshalled and unmarshalled (a 1.9M-item list took eval show 28 s and
// 612 MB under load).
func TestDatasetArgsAreNotRoundTripped(t *testing.T) {
	src := []byte("kind: agent_eval\nexamples:\n  - name: a\n    args: {x: [" + strings.Repeat("1, ", 200_000) + "1]}\n")
	parse := func() {
		d, err := parseDataset("d.yaml", "d.yaml", src)
		if err != nil || len(d.Examples) != 1 || len(d.Examples[0].Args["x"].([]any)) != 200_001 || d.Examples[0].Args["x"].([]any)[0] != 1.0 {
			t.Fatalf("parse: %v", err)
		}
	}
	parse()
	if mb := float64(allocs.During(parse)) / (1 << 20); mb > 62 {
		t.Errorf("parsing allocated %.0f MB, want at most 62 (72 through the round trip)", mb)
	}
}

// BenchmarkDatasetLargeArgs parses a dataset whose one example's args hold
// a 200,000-item list.
func BenchmarkDatasetLargeArgs(b *testing.B) {
	src := []byte("kind: agent_eval\nexamples:\n  - name: a\n    args: {x: [" + strings.Repeat("1, ", 200_000) + "1]}\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseDataset("d.yaml", "d.yaml", src); err != nil {
			b.Fatal(err)
		}
	}
}
