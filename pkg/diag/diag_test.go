package diag

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func sample() []Diagnostic {
	return []Diagnostic{
		{File: "b.yaml", Line: 2, Col: 3, Severity: Error, Rule: "r2", Message: "second"},
		{File: "a.yaml", Line: 10, Col: 1, Severity: Warning, Rule: "r1", Message: "warn, with: colon"},
		{File: "a.yaml", Line: 2, Col: 5, Severity: Error, Rule: "r1", Message: "first"},
		{File: "a.yaml", Line: 2, Col: 5, Severity: Error, Rule: "r1", Message: "first"},
	}
}

func TestSortDeterministicAndDedup(t *testing.T) {
	ds := Sort(sample())
	if len(ds) != 3 {
		t.Fatalf("want 3 after dedup, got %d", len(ds))
	}
	got := []string{ds[0].Pos(), ds[1].Pos(), ds[2].Pos()}
	want := []string{"a.yaml:2:5", "a.yaml:10:1", "b.yaml:2:3"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	if e, w := Count(ds); e != 2 || w != 1 {
		t.Fatalf("count = %d,%d", e, w)
	}
}

// The same finding made twice, once with its place as data and by
// another check, is one finding: Place and Format say how it was made,
// not what it says.
func TestSortDedupIgnoresPlaceAndFormat(t *testing.T) {
	d := Diagnostic{File: "a.yaml", Line: 2, Col: 5, Severity: Error, Rule: "r", Message: `state "a": x`}
	placed := d
	placed.Place, placed.Format = StatePlace("a"), "state %q: x"
	for _, ds := range [][]Diagnostic{{d, placed}, {placed, d}} {
		if got := Sort(ds); len(got) != 1 || got[0].Place != StatePlace("a") {
			t.Errorf("want the one finding, its place kept; got %+v", got)
		}
	}
}

func TestHumanSnippetCaret(t *testing.T) {
	src := map[string][]byte{"a.yaml": []byte("app:\n  idd: x\n")}
	ds := []Diagnostic{{File: "a.yaml", Line: 2, Col: 3, Severity: Error, Rule: "unknown-key", Message: "unknown key \"idd\""}}
	var b bytes.Buffer
	err := WriteHuman(&b, ds, HumanOptions{Snippet: true, Source: func(f string) ([]byte, bool) { d, ok := src[f]; return d, ok }})
	if err != nil {
		t.Fatal(err)
	}
	want := "a.yaml:2:3: error: unknown key \"idd\" [unknown-key]\n    2 |   idd: x\n      |   ^~~\n"
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// The caret's ~ run covers the rest of the token in display cells (a wide
// character takes two) and stops at a space or at the YAML punctuation that
// ends a key or a flow item.
func TestIndicatorSpansTheToken(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		want string
	}{
		{"  idd: x", 3, "^~~"},
		{"on: { go: [{ tagret: x }] }", 14, "^~~~~~"},
		{"a: [x, yy]", 8, "^~"},
		{"say: 日本 x", 6, "^~~~"},
		{"url: http://h:1/x y", 6, "^~~~~~~~~~~~"},
		{"k: v", 5, "^"}, // past the end: the caret alone
	} {
		if got := indicator([]rune(tc.line), tc.col); got != tc.want {
			t.Errorf("%q col %d: %q, want %q", tc.line, tc.col, got, tc.want)
		}
	}
}

func TestJSONStableFields(t *testing.T) {
	var b bytes.Buffer
	if err := writeJSON(&b, nil); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Fatalf("empty list: %q %v", b.String(), err)
	}
	b.Reset()
	if err := writeJSON(&b, Sort(sample())); err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"file", "line", "col", "severity", "rule", "message"} {
		if _, ok := back[0][k]; !ok {
			t.Fatalf("field %q missing in %v", k, back[0])
		}
	}
}

func TestGitHubEscapes(t *testing.T) {
	var b bytes.Buffer
	ds := []Diagnostic{{File: "a,b.yaml", Line: 1, Col: 2, Severity: Warning, Rule: "r", Message: "50% done\nnext"}}
	if err := WriteGitHub(&b, ds); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=a%2Cb.yaml,line=1,col=2,title=kitsoki r::50%25 done%0Anext\n"
	if b.String() != want {
		t.Fatalf("got %q want %q", b.String(), want)
	}
}

func TestSARIFShape(t *testing.T) {
	var b bytes.Buffer
	if err := writeSARIF(&b, Sort(sample()), ToolInfo{Version: "1.0", Rules: []Rule{{ID: "r1", Summary: "rule one"}}}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 3 {
		t.Fatalf("bad sarif: %s", b.String())
	}
	for _, r := range log.Runs[0].Results {
		if log.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Fatalf("ruleIndex %d does not point at %s", r.RuleIndex, r.RuleID)
		}
	}
	if log.Runs[0].Results[1].Level != "warning" || log.Runs[0].Results[1].Locations[0].PhysicalLocation.Region.StartLine != 10 {
		t.Fatalf("bad second result: %+v", log.Runs[0].Results[1])
	}
}

func TestApplyIgnores(t *testing.T) {
	src := []byte("a: 1 # kitsoki:ignore r1\n# kitsoki:ignore r2, r3\nb: 2\nc: 3 # kitsoki:ignore\nd: 4 # kitsoki:ignore other\ne: 5 # kitsoki:ignore r1, nosuch\n")
	ds := []Diagnostic{
		{File: "f", Line: 1, Severity: Warning, Rule: "r1"},
		{File: "f", Line: 1, Severity: Warning, Rule: "zz"},
		{File: "f", Line: 3, Severity: Warning, Rule: "r3"},
		{File: "f", Line: 4, Severity: Warning, Rule: "any"},
		{File: "f", Line: 5, Severity: Warning, Rule: "r1"},
		{File: "f", Line: 4, Severity: Error, Rule: "any"},
	}
	known := func(id string) bool { return id != "nosuch" }
	res := ApplyIgnores(ds, []string{"f"}, func(string) ([]byte, bool) { return src, true }, known, "ignore")
	var kept []string
	for _, d := range res.Kept {
		kept = append(kept, d.Pos()+" "+d.Rule+" "+string(d.Severity))
	}
	want := "f:1 zz warning|f:5 r1 warning|f:4 any error"
	if strings.Join(kept, "|") != want {
		t.Fatalf("kept %q, want %q", strings.Join(kept, "|"), want)
	}
	if len(res.Unknown) != 1 || res.Unknown[0].Pos() != "f:6:27" || !strings.Contains(res.Unknown[0].Message, "nosuch") {
		t.Fatalf("unknown: %v", res.Unknown)
	}
	// An ignore aimed at an error keeps it and is reported at the rule's
	// name (the words are pinned once, by pkg/validate's ignore golden).
	errRes := ApplyIgnores([]Diagnostic{{File: "g", Line: 1, Severity: Error, Rule: "r1"}}, []string{"g"},
		func(string) ([]byte, bool) { return []byte("a: 1 # kitsoki:ignore r1\n"), true }, known, "ignore")
	if len(errRes.Kept) != 1 || len(errRes.Unknown) != 1 || errRes.Unknown[0].Pos() != "g:1:23" || len(errRes.Unused) != 0 {
		t.Fatalf("ignore on an error: %+v", errRes)
	}
	var unused []string
	for _, d := range res.Unused {
		unused = append(unused, d.Pos())
	}
	// line 2 names r2 (nothing) and r3 (used); line 5 names other (nothing);
	// line 6 names r1 (nothing on line 6).
	if got := strings.Join(unused, "|"); got != "f:2:18|f:5:23|f:6:23" {
		t.Fatalf("unused: %s (%v)", got, res.Unused)
	}
}

// TestIgnoreBlockScalar: a marker on a key: | (or >-) line, or alone
// above it, covers the block scalar's text, where no comment can be
// written; the key after the block, a sibling of a list item's key, and a
// line past a marker that opens no block are not covered.
func TestIgnoreBlockScalar(t *testing.T) {
	src := []byte(`a:
  when: >-  # kitsoki:ignore r
    x &&

    y
  other: 1
  # kitsoki:ignore r
  - view: |
      text
    sib: 2
b: |
  plain # kitsoki:ignore r
  more
`)
	var ds []Diagnostic
	for _, l := range []int{2, 3, 5, 6, 8, 9, 10, 12, 13} {
		ds = append(ds, Diagnostic{File: "f", Line: l, Severity: Warning, Rule: "r"})
	}
	res := ApplyIgnores(ds, []string{"f"}, func(string) ([]byte, bool) { return src, true }, func(string) bool { return true }, "ignore")
	var kept []string
	for _, d := range res.Kept {
		kept = append(kept, d.Pos())
	}
	if got, want := strings.Join(kept, " "), "f:6 f:10 f:13"; got != want {
		t.Errorf("kept %s, want %s", got, want)
	}
}

// TestIgnoreVia: a finding in a file that holds no comment (ViaFile) is
// silenced by a marker on the story line that names it, and that marker
// counts as used.
func TestIgnoreVia(t *testing.T) {
	files := map[string][]byte{"app.yaml": []byte("with: {schema: v.json}  # kitsoki:ignore r\nx: 1\n"), "v.json": []byte("{\"minimum\": 1}\n")}
	ds := []Diagnostic{
		{File: "v.json", Line: 1, Col: 2, Severity: Warning, Rule: "r", ViaFile: "app.yaml", ViaLine: 1},
		{File: "v.json", Line: 1, Col: 2, Severity: Warning, Rule: "r", ViaFile: "app.yaml", ViaLine: 2},
	}
	res := ApplyIgnores(ds, []string{"app.yaml"}, func(f string) ([]byte, bool) { b, ok := files[f]; return b, ok }, func(string) bool { return true }, "ignore")
	if len(res.Kept) != 1 || res.Kept[0].ViaLine != 2 {
		t.Errorf("kept %+v, want the finding named on line 2 only", res.Kept)
	}
	if len(res.Unused) != 0 || len(res.Unknown) != 0 {
		t.Errorf("the marker is reported: %+v %+v", res.Unused, res.Unknown)
	}
}

func TestParseFormat(t *testing.T) {
	for _, ok := range []string{"human", "json", "github", "sarif", "codeclimate", ""} {
		if _, err := ParseFormat(ok); err != nil {
			t.Fatalf("%q: %v", ok, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil || !strings.Contains(err.Error(), "use human, json, github, sarif or codeclimate") {
		t.Fatalf("xml: %v", err)
	}
}

// Demote turns only errors into warnings, each once, and leaves the
// diagnostics before the slice it is given alone.
func TestDemoteTurnsErrorsIntoNotedWarnings(t *testing.T) {
	ds := []Diagnostic{
		{Severity: Error, Message: "before"},
		{Severity: Error, Message: "e"},
		{Severity: Warning, Message: "w"},
	}
	Demote(ds[1:], "ignored")
	want := []Diagnostic{
		{Severity: Error, Message: "before"},
		{Severity: Warning, Message: "e (ignored)"},
		{Severity: Warning, Message: "w"},
	}
	if !slices.Equal(ds, want) {
		t.Fatalf("got %+v, want %+v", ds, want)
	}
}

// TestSortClipsLongMessages: a message quoting a huge name keeps its
// start and its end (the fix) around the count left out, each cut on a
// character; a message within MaxMessage is kept whole.
func TestSortClipsLongMessages(t *testing.T) {
	name := strings.Repeat("é", 1_000_000)
	long := `transition target "` + name + `" does not exist; name a state of the story`
	ds := Sort([]Diagnostic{{File: "a.yaml", Line: 2, Message: long}, {File: "a.yaml", Line: 1, Message: "short"}})
	if ds[0].Message != "short" {
		t.Errorf("a short message changed: %q", ds[0].Message)
	}
	m := ds[1].Message
	if len(m) > MaxMessage+64 || !utf8.ValidString(m) || !strings.HasPrefix(m, `transition target "éé`) ||
		!strings.HasSuffix(m, `éé" does not exist; name a state of the story`) || !strings.Contains(m, " bytes left out) … ") {
		t.Errorf("a %d-byte message clipped to %d bytes: %.120q … %.120q", len(long), len(m), m, m[max(0, len(m)-120):])
	}
}
