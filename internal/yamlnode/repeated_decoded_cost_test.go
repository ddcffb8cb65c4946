package yamlnode

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// benchEntry is a cassette-like entry: tagged fields, an untagged one and
// an inline struct, its keys written last so each lookup reads them all.
type benchEntry struct {
	Kind           string         `yaml:"kind"`
	Verb           string         `yaml:"verb"`
	Request        map[string]any `yaml:"request"`
	Response       map[string]any `yaml:"response"`
	Note           string
	benchEntryMeta `yaml:",inline"`
}

type benchEntryMeta struct {
	CallID string `yaml:"call_id"`
	Phase  string `yaml:"phase"`
	Usage  string `yaml:"usage,omitempty"`
}

type benchFile struct {
	Kind    string        `yaml:"kind"`
	Entries []*benchEntry `yaml:"entries"`
}

// largeTypedDoc is a file of n entries, each mapping naming every field.
func largeTypedDoc(tb testing.TB, n int) *yaml.Node {
	var b strings.Builder
	b.WriteString("kind: cassette\nentries:\n")
	for i := range n {
		fmt.Fprintf(&b, "- {kind: a, verb: v, request: {q: %d}, response: {a: %d}, note: x, call_id: c%d, phase: p, usage: u}\n", i, i, i)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		tb.Fatal(err)
	}
	return &doc
}

// BenchmarkRepeatedKeyTyped is RepeatedKey's search of a 10,000-entry
// cassette-like file read into a typed struct: each key of each entry
// finds its field's type.
func BenchmarkRepeatedKeyTyped(b *testing.B) {
	doc := largeTypedDoc(b, 10_000)
	t := reflect.TypeFor[benchFile]()
	b.ReportAllocs()
	for b.Loop() {
		if at, msg := RepeatedKey(doc, t, "cassette"); at != nil {
			b.Fatal(msg)
		}
	}
}

// The search reads a struct's tags once, not once per key it looks up:
// its allocations do not grow with the entries of a typed file (reading
// the tags per key allocated four times an entry, and was most of a large
// cassette's load).
func TestRepeatedKeyReadsTagsOnce(t *testing.T) {
	doc := largeTypedDoc(t, 1_000)
	typ := reflect.TypeFor[benchFile]()
	allocs := testing.AllocsPerRun(5, func() {
		if second, _, _ := firstDecodedRepeat(doc, typ); second != nil {
			t.Fatalf("a repeat at line %d", second.Line)
		}
	})
	if allocs > 100 {
		t.Fatalf("searching 1,000 typed entries allocates %v times; the fields of a type should be read once", allocs)
	}
}
