package story

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/yamlfast"
)

// hexEscapeSource has hex escapes in views and world defaults (found) and
// in places upstream reads them alike (not found); the text of each found
// one is on the line and at the column its comment says.
const hexEscapeSource = `app: {id: h, version: 0.1.0}
world:
  a: {type: string, default: "x\u00e9 y"}
  b: "\x41 b"
  c: {type: map, default: {"k\U0001F600 ": ['\u00e9', "\u00e9 z"]}}
  d: {type: string, default: "tab\t\"\\ no"}
intents:
  go: {title: Go}
root: s
states:
  s:
    description: "caf\u00e9 d"
    view: "√√ \u00e9 x"
    on_enter: [{set: {a: "\u00e9 s"}}, {say: "\u00e9 s"}]
    on:
      go: [{target: t, view: "\u00e9 arc"}]
  t:
    view:
      - heading: "one
          two \u00e9 x"
      - code: |
          \u00e9 block
`

// wantHexEscapes are hexEscapeSource's found escapes as line:col text.
var wantHexEscapes = []string{"3:32 \\u00e9", "4:7 \\x41", "5:30 \\U0001F600", "5:56 \\u00e9", "13:15 \\u00e9", "16:31 \\u00e9", "20:15 \\u00e9"}

// TestHexEscapesPlaces: the loader finds each hex escape of a view or a
// world default at its place, and no other, with the YAML front end on and
// off and the file parsed whole and state by state.
func TestHexEscapesPlaces(t *testing.T) {
	for _, fast := range []string{"", "0"} {
		for _, opts := range []Options{{LookupEnv: noEnv, wholeParse: true}, {LookupEnv: noEnv, splitBatch: 1}} {
			t.Run(fmt.Sprintf("fast=%q/whole=%v", fast, opts.wholeParse), func(t *testing.T) {
				t.Setenv(yamlfast.SwitchEnv, fast)
				st, ds := LoadSource("h.yaml", []byte(hexEscapeSource), opts)
				if st == nil {
					t.Fatalf("no story: %v", ds)
				}
				var got []string
				add := func(es []HexEscape) {
					for _, e := range es {
						if e.Pos.File != "h.yaml" {
							t.Errorf("%+v: file %q", e, e.Pos.File)
						}
						got = append(got, fmt.Sprintf("%d:%d %s", e.Pos.Line, e.Pos.Col, e.Text))
					}
				}
				for _, w := range st.World {
					add(w.HexEscapes)
				}
				for _, s := range st.States {
					if s.View != nil {
						add(s.View.HexEscapes)
					}
					for _, on := range s.On {
						for _, arm := range on.Arms {
							if v := arm.View(); v != nil {
								add(v.HexEscapes)
							}
						}
					}
				}
				slices.Sort(got)
				want := slices.Sorted(slices.Values(wantHexEscapes))
				if !slices.Equal(got, want) {
					t.Fatalf("got  %v\nwant %v", got, want)
				}
				lines := strings.Split(hexEscapeSource, "\n")
				for _, g := range got {
					var line, col int
					var text string
					fmt.Sscanf(g, "%d:%d %s", &line, &col, &text)
					if r := []rune(lines[line-1]); col-1+len(text) > len(r) || string(r[col-1:col-1+len(text)]) != text {
						t.Errorf("%s: the source there is %q", g, lines[line-1])
					}
				}
			})
		}
	}
}

// TestHexEscapesNone: a file with no hex escape anywhere, or only in
// places read alike, records none.
func TestHexEscapesNone(t *testing.T) {
	src := strings.ReplaceAll(hexEscapeSource, `"x\u00e9 y"`, `"x y"`)
	st, _ := LoadSource("h.yaml", []byte("app: {id: h, version: 0.1.0}\nroot: s\nstates:\n  s: {view: \"a\\tb\", on_enter: [{say: \"\\u00e9\"}]}\n"), Options{LookupEnv: noEnv})
	if st == nil || st.States[0].View == nil || st.States[0].View.HexEscapes != nil {
		t.Fatalf("escapes in %+v", st)
	}
	if st, _ := LoadSource("h.yaml", []byte(src), Options{LookupEnv: noEnv}); st == nil || st.World[0].HexEscapes != nil {
		t.Fatalf("a: %+v", st.World[0].HexEscapes)
	}
}
