package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The SARIF log validates against the official SARIF 2.1.0 schema
// (testdata/sarif-2.1.0-rtm.5.schema.json, licence beside it) and against
// testdata/sarif-2.1.0-subset.schema.json (the spec's constraints on every
// object kitsoki writes, restated tighter), format assertions on, for paths
// with spaces, non-ASCII, outside the root, and a rule with help.
func TestSARIFValidatesAgainstSchema(t *testing.T) {
	for _, name := range []string{"sarif-2.1.0-rtm.5.schema.json", "sarif-2.1.0-subset.schema.json"} {
		t.Run(name, func(t *testing.T) { sarifAgainst(t, name) })
	}
}

func sarifAgainst(t *testing.T, name string) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	// The library's uri and uri-reference checks are url.Parse, which lets
	// a raw space through; RFC 3986 (which SARIF §3.10 requires) does not.
	c.RegisterFormat(&jsonschema.Format{Name: "uri-reference", Validate: rfc3986Reference})
	c.RegisterFormat(&jsonschema.Format{Name: "uri", Validate: rfc3986Reference})
	sch, err := c.Compile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	outside := filepath.Join(filepath.Dir(root), "elsewhere dir", "app.yaml")
	ds := []Diagnostic{
		{File: filepath.Join(root, "my stories", "app.yaml"), Line: 3, Col: 5, Severity: Error, Rule: "target", Message: "m"},
		{File: filepath.Join(root, "é%#?", "app.yaml"), Line: 1, Severity: Warning, Rule: "unreachable", Message: "w"},
		{File: outside, Severity: Error, Rule: "io", Message: "x"},
	}
	var b bytes.Buffer
	if err := writeSARIF(&b, ds, ToolInfo{Version: "1", Rules: []Rule{{ID: "target", Summary: "t", Example: "help text"}}, Root: root}); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("SARIF log is schema-invalid: %v\n%s", err, b.String())
	}
	var log struct {
		Runs []struct {
			ColumnKind string `json:"columnKind"`
			Base       map[string]struct {
				URI string `json:"uri"`
			} `json:"originalUriBaseIds"`
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.ColumnKind != "unicodeCodePoints" || !strings.HasPrefix(run.Base["%SRCROOT%"].URI, "file:///") || !strings.HasSuffix(run.Base["%SRCROOT%"].URI, "/") {
		t.Fatalf("run base: %+v", run)
	}
	var uris []string
	for _, r := range run.Results {
		al := r.Locations[0].PhysicalLocation.ArtifactLocation
		uris = append(uris, al.URIBaseID+" "+al.URI)
	}
	want := []string{"%SRCROOT% my%20stories/app.yaml", "%SRCROOT% %C3%A9%25%23%3F/app.yaml"}
	for i, w := range want {
		if uris[i] != w {
			t.Errorf("uri %d = %q, want %q", i, uris[i], w)
		}
	}
	if !strings.HasPrefix(uris[2], " file:///") || !strings.Contains(uris[2], "elsewhere%20dir/app.yaml") {
		t.Errorf("outside the root: %q", uris[2])
	}
	// The schema is not a pushover: the old form (a raw space) fails it.
	bad := strings.Replace(b.String(), "my%20stories", "my stories", 1)
	doc, _ = jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if err := sch.Validate(doc); err == nil {
		t.Fatal("a URI with a raw space passed the schema")
	}
}

// rfc3986Reference accepts the characters of an RFC 3986 URI reference:
// unreserved, reserved and %XX escapes.
func rfc3986Reference(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", ch) >= 0:
		case ch == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return fmt.Errorf("%q: character %q at %d is not allowed in a URI reference (percent-encode it)", s, ch, i)
		}
	}
	return nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
