package yamlnode

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type decodedInner struct {
	Data map[string]any `yaml:"data"`
}

type decodedOuter struct {
	Kind         string `yaml:"kind"`
	decodedEmbed `yaml:",inline"`
	Items        []*decodedInner `yaml:"items"`
	Skipped      string          `yaml:"-"`
	Node         yaml.Node       `yaml:"node"`
}

type decodedEmbed struct {
	Extra map[string]string `yaml:"extra"`
}

// TestFirstDecodedRepeat (firstDecodedRepeat): merged lists and alias keys repeat only where the
// type reads (struct fields by tag, inline structs, maps, lists, any,
// yaml.Node); unknown and `-` fields are skipped; written repeats are not
// its business; the later key and the earlier one come back.
func TestFirstDecodedRepeat(t *testing.T) {
	for _, c := range []struct {
		src  string
		want [4]int // second line, col, first line, col; zero for none
	}{
		{"items:\n- data: {<<: [{a: 1}, {a: 2}]}\n", [4]int{2, 24, 2, 16}},
		{"items:\n- data: {&k a: 1, *k : 2}\n", [4]int{2, 19, 2, 10}},
		{"items:\n- data: {x: {<<: [{a: 1}, {b: 1, a: 2}]}}\n", [4]int{2, 34, 2, 20}},
		{"extra: {<<: [{a: x}, {a: y}]}\n", [4]int{1, 23, 1, 15}},
		{"node: {<<: [{a: 1}, {a: 2}]}\n", [4]int{1, 22, 1, 14}},
		{"a: &a {k: 1}\nb: &b {k: 2}\nitems:\n- data: {<<: [*a, *b]}\n", [4]int{2, 8, 1, 8}},
		{"unknown: {<<: [{a: 1}, {a: 2}]}\n", [4]int{}},
		{"skipped: {<<: [{a: 1}, {a: 2}]}\n", [4]int{}},
		{"items:\n- other: {&k a: 1, *k : 2}\n", [4]int{}},
		{"items:\n- data: {<<: [{<<: {a: 1}}, {a: 2}]}\n", [4]int{}},
		{"items:\n- data: {&k a: 1, <<: {a: 2}}\n", [4]int{}},
		{"items:\n- data: {a: 1, a: 2}\n", [4]int{}},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &doc); err != nil {
			t.Fatal(err)
		}
		second, first, _ := firstDecodedRepeat(&doc, reflect.TypeFor[decodedOuter]())
		var got [4]int
		if second != nil {
			got = [4]int{second.Line, second.Column, first.Line, first.Column}
		}
		if got != c.want {
			t.Errorf("%q: got %v, want %v", c.src, got, c.want)
		}
	}
}

// TestFirstDecodedRepeatAliasBomb: an alias tree that doubles at each level
// is searched once per node, not once per path.
func TestFirstDecodedRepeatAliasBomb(t *testing.T) {
	src := "a0: &a0 {k: 1}\n"
	for i := 1; i <= 40; i++ {
		src += fmt.Sprintf("a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if second, _, _ := firstDecodedRepeat(&doc, nil); second != nil {
		t.Errorf("found %v", second)
	}
}

// TestDecodedRepeatSearchesEachMergedListOnce: mappings merging one list
// (a sidecar's inputs each `{<<: *L}`) cost the search their own keys, the
// list's once: it searched the list again for each of them, so 20,000
// such mappings of a 20,000-key list (558 KB) looked at 400 million keys
// and took minutes. A repeat in the list is found all the same.
func TestDecodedRepeatSearchesEachMergedListOnce(t *testing.T) {
	const keys, uses = 2000, 2000
	src := func(repeat string) string {
		var b strings.Builder
		b.WriteString("notes: &L\n  - {")
		for k := range keys {
			fmt.Fprintf(&b, "k%d: 1, ", k)
		}
		b.WriteString("}\n  - {" + repeat + "z: 1}\ninputs:\n")
		for u := range uses {
			fmt.Fprintf(&b, "  f%d: {<<: *L, u: 1}\n", u)
		}
		return b.String()
	}
	search := func(text string) decodedSearch { return searchText(t, text, nil) }
	if s := search(src("")); s.second != nil || s.steps > 10*(keys+uses) {
		t.Errorf("the search looked at %d keys and elements (found %v): want no repeat and at most %d, about the file's keys", s.steps, s.second, 10*(keys+uses))
	}
	if s := search(src("k7: 1, ")); s.second == nil || s.second.Value != "k7" || s.first.Value != "k7" {
		t.Errorf("found %v, want the merged list's second k7", s.second)
	}
}

// TestDecodedRepeatReadsEachMergedMappingOnce: a mapping merged into many
// struct-typed mappings has its keys read once, not once per mapping, and
// a key written beside the merge is still found.
func TestDecodedRepeatReadsEachMergedMappingOnce(t *testing.T) {
	type input struct {
		Type string `yaml:"type"`
	}
	type sidecar struct {
		Notes  map[string]int   `yaml:"notes"`
		Inputs map[string]input `yaml:"inputs"`
	}
	const keys, uses = 2000, 2000
	src := func(beside string) string {
		var b strings.Builder
		b.WriteString("notes: &L {")
		for k := range keys {
			fmt.Fprintf(&b, "k%d: 1, ", k)
		}
		b.WriteString("}\ninputs:\n")
		for u := range uses {
			fmt.Fprintf(&b, "  f%d: {<<: *L, u: 1%s}\n", u, beside)
		}
		return b.String()
	}
	search := func(text string) decodedSearch { return searchText(t, text, reflect.TypeFor[sidecar]()) }
	if s := search(src("")); s.second != nil || s.steps > 10*(keys+uses) {
		t.Errorf("the search looked at %d keys and elements (found %v): want no repeat and at most %d, about the file's keys", s.steps, s.second, 10*(keys+uses))
	}
	if s := search(src(", k7: 2")); s.second == nil || s.second.Value != "k7" || s.how != mergedBeside {
		t.Errorf("found %v (%q), want the k7 written beside the merge", s.second, s.how)
	}
}

// searchText is the decoded-repeat search of text read into typ, with its
// step count.
func searchText(t *testing.T, text string, typ reflect.Type) decodedSearch {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	s := newDecodedSearch()
	s.walk(&doc, typ)
	return *s
}

// TestDecodedRepeatNotesOnlyWhatMayRepeat: a document of many mappings
// with no anchor, alias or merge key is searched without noting each
// node visited or each mapping's keys (a host cassette of 12,000 episodes
// spent a fifth of its parse on it): the search allocates a handful of
// times, however long the document, and still finds a repeat an alias
// makes in it.
func TestDecodedRepeatNotesOnlyWhatMayRepeat(t *testing.T) {
	type ep struct {
		ID    string         `yaml:"id"`
		Match map[string]any `yaml:"match"`
	}
	type doc struct {
		Episodes []ep `yaml:"episodes"`
	}
	var sb strings.Builder
	sb.WriteString("episodes:\n")
	for i := range 2000 {
		fmt.Fprintf(&sb, "  - {id: e%d, match: {handler: h, args: {n: %d}}}\n", i, i)
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(sb.String()), &root); err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[doc]()
	if at, msg := RepeatedKey(&root, typ, "cassette"); at != nil {
		t.Fatalf("no repeat: %s", msg)
	}
	if n := testing.AllocsPerRun(3, func() { RepeatedKey(&root, typ, "cassette") }); n > 50 {
		t.Errorf("searching 2,000 plain episodes allocated %v times, want at most 50", n)
	}
	sb.WriteString("  - {id: &k handler, match: {*k : 1, handler: 2}}\n")
	if err := yaml.Unmarshal([]byte(sb.String()), &root); err != nil {
		t.Fatal(err)
	}
	if at, msg := RepeatedKey(&root, typ, "cassette"); at == nil || !strings.Contains(msg, "through an alias") {
		t.Errorf("an alias key repeating a written one: %v %q", at, msg)
	}
}
