package story

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// splitCases are stories the split must handle exactly as the whole parse:
// the ones it cuts, and the ones it must refuse (anchors, flow, markers...).
var splitCases = map[string]string{
	"plain":                   "app: {id: x}\nroot: a\nstates:\n  a:\n    on:\n      go: b\n  b:\n    terminal: true\n",
	"comments between":        "root: a\nstates:\n  # first\n  a:\n    on: {go: b} # trailing\n# at column one\n  b:\n    terminal: true\n\n  # last\nintents:\n  go: {}\n",
	"quoted keys":             "root: a\nstates:\n  \"a\":\n    on: {go: 'b c'}\n  'b c':\n    terminal: true\n",
	"duplicate state":         "root: a\nstates:\n  a:\n    terminal: true\n  b: {}\n  a:\n    description: again\n",
	"type errors":             "root: a\nstates:\n  a: 3\n  b: [x]\n  c:\n    on: 7\n    bogus: 1\n",
	"nested":                  "root: a\nstates:\n  a:\n    initial: b\n    states:\n      b:\n        on: {go: c}\n      c: {terminal: true}\n  d: {terminal: true}\n",
	"block scalars":           "root: a\nstates:\n  a:\n    description: |\n      line one\n        deeper\n\n      after blank\n    view: >-\n      folded\n      text\n  b:\n    view: |2\n       two\n",
	"multiline plain":         "root: a\nstates:\n  a:\n    description: one\n      two\n      three\n  b: {terminal: true}\n",
	"quoted spans cut":        "root: a\nstates:\n  a:\n    description: \"one\n  b: two\"\n  c: {terminal: true}\n",
	"flow spans cut":          "root: a\nstates:\n  a:\n    on: {go: b,\n  b: c}\n  c: {terminal: true}\n",
	"anchor in state":         "root: a\nstates:\n  a: &s\n    terminal: true\n  b: *s\n",
	"alias from header":       "world:\n  x: &w {type: int}\nroot: a\nstates:\n  a:\n    on_enter: [{set: *w}]\n  b: {}\n",
	"anchor used in tail":     "root: a\nstates:\n  a:\n    description: &d hi\n  b: {}\nintents:\n  go: {title: *d}\n",
	"merge key":               "root: a\nstates:\n  a:\n    <<: {terminal: true}\n  b: {}\n",
	"state merge":             "root: a\nstates:\n  <<: {a: {}}\n  b: {}\n",
	"directive":               "%YAML 1.2\n---\nroot: a\nstates:\n  a: {}\n  b: {}\n",
	"two docs":                "root: a\nstates:\n  a: {}\n  b: {}\n---\nroot: b\n",
	"tabs":                    "root: a\nstates:\n  a:\n    description: \"x\ty\"\n  b: {}\n",
	"crlf":                    "root: a\r\nstates:\r\n  a: {}\r\n  b: {}\r\n",
	"flow states":             "root: a\nstates: {a: {}, b: {}}\n",
	"states twice":            "root: a\nstates:\n  a: {}\n  b: {}\nstates:\n  c: {}\n  d: {}\n",
	"sequence":                "root: a\nstates:\n  - a\n  - b\n",
	"bad indent":              "root: a\nstates:\n    a: {}\n  b: {}\n",
	"syntax error in a state": "root: a\nstates:\n  a:\n    on: {go: b\n  b: {}\n  c: [\n",
	"syntax error in tail":    "root: a\nstates:\n  a: {}\n  b: {}\nintents: [\n",
	"indented tail":           "root: a\nstates:\n  a: {}\n  b: {}\n intents: {}\n",
	"scalar state line":       "root: a\nstates:\n  a: {}\n  b\n",
	"empty states":            "root: a\nstates:\nintents: {}\n",
	"top comment cut":         "root: a\nstates:\n  a:\n    description: x\n#  b: {}\n  c: {}\n",
	"long key":                "root: a\nstates:\n  " + strings.Repeat("k", 1100) + ": {}\n  b: {}\n",
	"key in quotes":           "root: a\nstates:\n  a: {}\n  \"b\n  c\": {}\n",
	"bom":                     "\xef\xbb\xbfroot: a\nstates:\n  a: {}\n  b: {}\n",
	"document end":            "root: a\nstates:\n  a: {}\n  b: {}\n...\n",
	"includes":                "root: a\ninclude: [x.yaml]\nstates:\n  a: {}\n  b: {}\n",
	"with and view":           "root: a\nhosts: [host.run]\nstates:\n  a:\n    view:\n      - heading: \"{{ world.x }}\"\n      - prose: hi\n    on_enter:\n      - invoke: host.run\n        with: {cmd: echo, args: [\"{{ world.nope }\"]}\n  b: {}\n",
}

// TestSplitParseMatchesWholeParse: every story loads to the same model
// and the same diagnostics whether its states are parsed one by one or
// the whole file at once.
func TestSplitParseMatchesWholeParse(t *testing.T) {
	cut := 0
	for name, src := range splitCases {
		t.Run(name, func(t *testing.T) {
			if splitParses([]byte(src)) {
				cut++
			}
			compareSplitBytes(t, []byte(src))
		})
	}
	if cut < 10 {
		t.Fatalf("only %d of the cases were cut and parsed: the split path is not tested", cut)
	}
	var dirs []string
	for _, glob := range []string{"testdata/*/*/app.yaml", "testdata/*/app.yaml", "../../examples/*/app.yaml", "../../examples/*/*/app.yaml"} {
		m, _ := filepath.Glob(glob)
		for _, f := range m {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	dirs = append(dirs, genStory(t, 50), genLeanStory(t, 50))
	if len(dirs) < 20 {
		t.Fatalf("only %d stories found", len(dirs))
	}
	cut = 0
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			if data, err := os.ReadFile(filepath.Join(dir, "app.yaml")); err == nil && splitParses(data) {
				cut++
			}
			b, db := Load(dir, Options{LookupEnv: noEnv, wholeParse: true})
			for _, batch := range []int{0, 1, 700} {
				a, da := Load(dir, Options{LookupEnv: noEnv, splitBatch: batch})
				if diff := diffDiags(da, db); diff != "" {
					t.Fatalf("batch %d: diagnostics differ:\n%s", batch, diff)
				}
				if err := sameModel(reflect.ValueOf(a), reflect.ValueOf(b), "story", map[[2]uintptr]bool{}); err != nil {
					t.Fatalf("batch %d: %v", batch, err)
				}
			}
		})
	}
	if cut < 5 {
		t.Fatalf("only %d of the story files were cut: the split path is not tested", cut)
	}
}

// splitParses reports whether data is cut and every state parses on its
// own (the split is then used, not the whole-file fallback).
func splitParses(data []byte) bool {
	sp, ok := splitStates(data)
	if !ok {
		return false
	}
	if _, syn := decodeYAML(sp.top, yamlnode.MaxNodes); syn != nil {
		return false
	}
	for i := range sp.chunks {
		if _, ok := parseBatch(data, sp.chunks[i:i+1], sp.indent, yamlnode.MaxNodes); !ok {
			return false
		}
	}
	return true
}

func compareSplitBytes(t *testing.T, data []byte) {
	t.Helper()
	b, db := LoadSource("s.yaml", data, Options{LookupEnv: noEnv, wholeParse: true})
	for _, batch := range []int{0, 1, 40} {
		a, da := LoadSource("s.yaml", data, Options{LookupEnv: noEnv, splitBatch: batch})
		if diff := diffDiags(da, db); diff != "" {
			t.Fatalf("batch %d: diagnostics differ:\n%s", batch, diff)
		}
		if err := sameModel(reflect.ValueOf(a), reflect.ValueOf(b), "story", map[[2]uintptr]bool{}); err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
	}
}

func diffDiags(a, b []diag.Diagnostic) string {
	var out strings.Builder
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i].String()
		}
		if i < len(b) {
			y = b[i].String()
		}
		if x != y {
			fmt.Fprintf(&out, "split: %s\nwhole: %s\n", x, y)
		}
	}
	return out.String()
}

// yamlComments are the node fields the model never reads; a comment next
// to a cut attaches to a different node in the two parses.
var yamlComments = map[string]bool{"HeadComment": true, "LineComment": true, "FootComment": true}

var yamlNodeType = reflect.TypeOf(yaml.Node{})

// sameModel compares two models field by field (unexported ones too),
// following pointers once.
func sameModel(a, b reflect.Value, path string, seen map[[2]uintptr]bool) error {
	if a.IsValid() != b.IsValid() {
		return fmt.Errorf("%s: one side missing", path)
	}
	if !a.IsValid() {
		return nil
	}
	if a.Type() != b.Type() {
		return fmt.Errorf("%s: type %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		return sameRef(a, b, path, seen)
	case reflect.Struct:
		return sameStruct(a, b, path, seen)
	case reflect.Slice, reflect.Array:
		return sameList(a, b, path, seen)
	case reflect.Map:
		return sameMap(a, b, path, seen)
	case reflect.Func:
		if a.IsNil() != b.IsNil() {
			return fmt.Errorf("%s: func nil vs set", path)
		}
		return nil
	}
	return sameScalar(a, b, path)
}

// sameRef compares what two pointers or interfaces hold.
func sameRef(a, b reflect.Value, path string, seen map[[2]uintptr]bool) error {
	if a.IsNil() || b.IsNil() {
		if a.IsNil() != b.IsNil() {
			return fmt.Errorf("%s: nil vs non-nil", path)
		}
		return nil
	}
	if a.Kind() == reflect.Pointer {
		key := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[key] {
			return nil
		}
		seen[key] = true
	}
	return sameModel(a.Elem(), b.Elem(), path, seen)
}

func sameStruct(a, b reflect.Value, path string, seen map[[2]uintptr]bool) error {
	if a.Type() == reflect.TypeFor[safefile.Root]() {
		return nil // an open directory, not parsed content
	}
	for i := 0; i < a.NumField(); i++ {
		f := a.Type().Field(i)
		if a.Type() == yamlNodeType && yamlComments[f.Name] {
			continue
		}
		if err := sameModel(a.Field(i), b.Field(i), path+"."+f.Name, seen); err != nil {
			return err
		}
	}
	return nil
}

func sameList(a, b reflect.Value, path string, seen map[[2]uintptr]bool) error {
	if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
		return fmt.Errorf("%s: nil vs empty slice", path)
	}
	if a.Len() != b.Len() {
		return fmt.Errorf("%s: length %d vs %d", path, a.Len(), b.Len())
	}
	for i := 0; i < a.Len(); i++ {
		if err := sameModel(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), seen); err != nil {
			return err
		}
	}
	return nil
}

func sameMap(a, b reflect.Value, path string, seen map[[2]uintptr]bool) error {
	if a.IsNil() != b.IsNil() {
		return fmt.Errorf("%s: nil vs empty map", path)
	}
	if a.Len() != b.Len() {
		return fmt.Errorf("%s: %d vs %d entries", path, a.Len(), b.Len())
	}
	it := a.MapRange()
	for it.Next() {
		bv := b.MapIndex(it.Key())
		if !bv.IsValid() {
			return fmt.Errorf("%s: key %v missing", path, it.Key())
		}
		if err := sameModel(it.Value(), bv, fmt.Sprintf("%s[%v]", path, it.Key()), seen); err != nil {
			return err
		}
	}
	return nil
}

// sameScalar compares two strings, bools or numbers (NaN equals NaN).
func sameScalar(a, b reflect.Value, path string) error {
	var x, y any
	switch a.Kind() {
	case reflect.String:
		x, y = a.String(), b.String()
	case reflect.Bool:
		x, y = a.Bool(), b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, y = a.Int(), b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x, y = a.Uint(), b.Uint()
	case reflect.Float32, reflect.Float64:
		if a.Float() != a.Float() && b.Float() != b.Float() {
			return nil
		}
		x, y = a.Float(), b.Float()
	default:
		return nil
	}
	if x != y {
		return fmt.Errorf("%s: %#v vs %#v", path, x, y)
	}
	return nil
}

// FuzzSplitStates: for any input, the state-by-state parse gives the
// model and diagnostics of the whole-file parse.
func FuzzSplitStates(f *testing.F) {
	for _, src := range splitCases {
		f.Add([]byte(src))
	}
	for _, glob := range []string{"testdata/corpus/*/app.yaml", "testdata/upstream/*/app.yaml"} {
		m, _ := filepath.Glob(glob)
		for _, s := range m {
			data, err := os.ReadFile(s)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		compareSplitBytes(t, data)
	})
}

// TestSplitSwitchTurnsTheSplitOff: KITSOKI_YAMLSPLIT=0 (and its spellings)
// parses a file the split would cut as one whole document, with the same
// model; unset or any other value leaves the split on.
func TestSplitSwitchTurnsTheSplitOff(t *testing.T) {
	data := []byte(splitCases["plain"])
	for _, c := range []struct {
		value string
		split bool
	}{{"", true}, {"1", true}, {"0", false}, {"false", false}, {"OFF", false}, {"no", false}} {
		t.Run(c.value, func(t *testing.T) {
			t.Setenv(SplitEnv, c.value)
			l := newLoader(Options{LookupEnv: noEnv})
			fd, p := l.parseFileDoc("s.yaml", "/s.yaml", data, false)
			if fd == nil || p == nil {
				t.Fatalf("the story did not parse: %v", l.rep.Diags)
			}
			if p.splitUsed != c.split {
				t.Fatalf("%s=%q: split used %v, want %v", SplitEnv, c.value, p.splitUsed, c.split)
			}
			compareSplitBytes(t, data)
		})
	}
}
