package schema

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// story writes files (slash paths relative to the story dir) into a fresh
// story directory and returns it.
func story(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		mustWrite(t, dir, name, body)
	}
	return dir
}

func mustWrite(t testing.TB, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const verdictSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title":   "judge_verdict",
  "type":    "object",
  "required": ["verdict", "intent", "reason", "confidence"],
  "properties": {
    "verdict":    { "type": "string", "enum": ["pass", "fail", "uncertain"] },
    "intent":     { "type": "string", "enum": ["accept", "refine", "restart_from", "quit", "uncertain"] },
    "reason":     { "type": "string", "minLength": 4 },
    "confidence": { "type": "number", "minimum": 0.0, "maximum": 1.0 }
  },
  "additionalProperties": false
}`

// A schema outside the root that would compile fine if it were ever read:
// a refusal therefore cannot come from its content.
const outsideSchema = `{"type":"object","title":"OUTSIDE-MARKER"}`

func mustCompileErr(t *testing.T, err error) *CompileError {
	t.Helper()
	if err == nil {
		t.Fatal("compile succeeded, want an error")
	}
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v is not a *CompileError", err, err)
	}
	if strings.Contains(err.Error(), "OUTSIDE-MARKER") {
		t.Fatalf("error leaks content read from outside the root: %v", err)
	}
	return ce
}

func TestCompileAndValidateVerdict(t *testing.T) {
	dir := story(t, map[string]string{"schemas/verdict.json": verdictSchema})
	c := NewCompiler(dir)
	s, err := c.Compile("schemas/verdict.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != "schemas/verdict.json" {
		t.Errorf("Path = %q", s.Path)
	}
	if string(s.Raw) != verdictSchema {
		t.Errorf("Raw is not the file's bytes")
	}
	if ve := s.ValidateJSON([]byte(`{"verdict":"pass","intent":"accept","reason":"looks good","confidence":0.9}`)); ve != nil {
		t.Fatalf("valid submission rejected: %v", ve)
	}
	// Same schema by absolute path and by an unclean relative path: one cache entry.
	s2, err := c.Compile(filepath.Join(dir, "schemas", "verdict.json"))
	if err != nil || s2 != s {
		t.Fatalf("absolute path: got %p, %v; want cached %p", s2, err, s)
	}
	s3, err := c.Compile("./schemas/../schemas/verdict.json")
	if err != nil || s3 != s {
		t.Fatalf("unclean path: got %p, %v; want cached %p", s3, err, s)
	}
}

func TestValidationPointersAndConstraints(t *testing.T) {
	s, err := CompileBytes("verdict.json", []byte(verdictSchema))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, doc, pointer, constraint, msgPart string
	}{
		{"missing", `{"verdict":"pass","intent":"accept","reason":"fine"}`, "", "required", "confidence"},
		{"enum", `{"verdict":"maybe","intent":"accept","reason":"fine","confidence":0.5}`, "/verdict", "enum", "'pass'"},
		{"type", `{"verdict":"pass","intent":"accept","reason":"fine","confidence":"high"}`, "/confidence", "type", "want number"},
		{"maximum", `{"verdict":"pass","intent":"accept","reason":"fine","confidence":95}`, "/confidence", "maximum", "got 95, want 1"},
		{"minLength", `{"verdict":"pass","intent":"accept","reason":"ok","confidence":0.5}`, "/reason", "minLength", ""},
		{"additional", `{"verdict":"pass","intent":"accept","reason":"fine","confidence":0.5,"extra":1}`, "", "additionalProperties", "'extra'"},
		{"root type", `null`, "", "type", "got null, want object"},
		{"malformed", `{"verdict": pass}`, "", "json", "line 1, column 13: invalid character 'p' looking for beginning of value"},
		{"empty", ``, "", "json", "it is empty: no JSON value"},
		{"truncated", `{"verdict":`, "", "json", "line 1, column 12: the JSON ends early (cut short?)"},
		{"trailing", `{} x`, "", "json", "line 1, column 4: unexpected 'x'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ve := s.ValidateJSON([]byte(tc.doc))
			if ve == nil {
				t.Fatal("accepted")
			}
			if ve.Pointer != tc.pointer || ve.Constraint != tc.constraint || !strings.Contains(ve.Message, tc.msgPart) {
				t.Fatalf("got pointer %q constraint %q message %q; want %q %q containing %q", ve.Pointer, ve.Constraint, ve.Message, tc.pointer, tc.constraint, tc.msgPart)
			}
			want := tc.constraint + ": " + ve.Message
			if tc.pointer != "" {
				want = tc.pointer + ": " + want
			}
			if strings.HasPrefix(ve.Message, tc.constraint+":") {
				t.Fatalf("message repeats the constraint: %q", ve.Message)
			}
			if !strings.HasPrefix(ve.Error(), want) {
				t.Fatalf("Error() = %q, want prefix %q", ve.Error(), want)
			}
		})
	}
}

func TestValidateDecodedValues(t *testing.T) {
	s, err := CompileBytes("n.json", []byte(`{"type":"object","properties":{"n":{"type":"integer","maximum":3}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.Validate(map[string]any{"n": float64(2)}); ve != nil {
		t.Fatalf("float64 2 rejected: %v", ve)
	}
	ve := s.Validate(map[string]any{"n": float64(2.5)})
	if ve == nil || ve.Pointer != "/n" || ve.Constraint != "type" {
		t.Fatalf("2.5 as integer: %+v", ve)
	}
	ve = s.ValidateJSON([]byte(`{"n": 4}`))
	if ve == nil || ve.Pointer != "/n" || ve.Constraint != "maximum" {
		t.Fatalf("4 > maximum 3: %+v", ve)
	}
}

func TestValidationCollectsEveryLeaf(t *testing.T) {
	s, err := CompileBytes("m.json", []byte(`{"type":"object","required":["a"],"properties":{"b":{"type":"string"},"c~/d":{"enum":[1]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ve := s.ValidateJSON([]byte(`{"b":1,"c~/d":2}`))
	if ve == nil {
		t.Fatal("accepted")
	}
	got := []string{ve.Pointer + " " + ve.Constraint}
	for _, m := range ve.More {
		got = append(got, m.Pointer+" "+m.Constraint)
	}
	joined := strings.Join(got, ",")
	for _, want := range []string{" required", "/b type", "/c~0~1d enum"} {
		if !strings.Contains(joined, want) {
			t.Errorf("leaves %q lack %q", joined, want)
		}
	}
	if n := strings.Count(ve.Error(), "; "); n != len(ve.More) {
		t.Errorf("Error() %q joins %d leaves, want %d", ve.Error(), n+1, len(ve.More)+1)
	}
}

func TestOneOfReportsEachBranch(t *testing.T) {
	s, err := CompileBytes("o.json", []byte(`{"oneOf":[{"type":"string"},{"type":"integer"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ve := s.ValidateJSON([]byte(`1.5`))
	if ve == nil || len(ve.More) != 1 || ve.Constraint != "type" || ve.More[0].Constraint != "type" {
		t.Fatalf("got %+v", ve)
	}
}

func TestDraftSelection(t *testing.T) {
	// 2020-12 by default: prefixItems is honoured.
	s, err := CompileBytes("d.json", []byte(`{"prefixItems":[{"type":"string"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`[1]`)); ve == nil || ve.Pointer != "/0" {
		t.Fatalf("2020-12 default: prefixItems not applied: %+v", ve)
	}
	// draft-07 named in $schema: items as a list is the tuple form.
	s, err = CompileBytes("d7.json", []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`[1]`)); ve == nil || ve.Pointer != "/0" {
		t.Fatalf("draft-07 tuple items not applied: %+v", ve)
	}
	// format is annotation only, as upstream.
	s, err = CompileBytes("f.json", []byte(`{"format":"email"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`"nope"`)); ve != nil {
		t.Fatalf("format asserted: %v", ve)
	}
}

func TestNestedRelativeRefsInsideRoot(t *testing.T) {
	dir := story(t, map[string]string{
		"schemas/top.json":            `{"type":"object","properties":{"v":{"$ref":"common/verdict.json"},"n":{"$ref":"common/defs.json#/$defs/count"}}}`,
		"schemas/common/verdict.json": `{"$ref":"../leaf.json"}`,
		"schemas/common/defs.json":    `{"$defs":{"count":{"type":"integer","minimum":0}}}`,
		"schemas/leaf.json":           `{"type":"string","enum":["pass","fail"]}`,
	})
	s, err := NewCompiler(dir).Compile("schemas/top.json")
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`{"v":"pass","n":3}`)); ve != nil {
		t.Fatal(ve)
	}
	ve := s.ValidateJSON([]byte(`{"v":"maybe","n":-1}`))
	if ve == nil || ve.Pointer != "/n" || ve.Constraint != "minimum" || len(ve.More) != 1 || ve.More[0].Pointer != "/v" || ve.More[0].Constraint != "enum" {
		t.Fatalf("got %+v", ve)
	}
}

func TestInDocumentRefs(t *testing.T) {
	s, err := CompileBytes("defs.json", []byte(`{"$defs":{"x":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/x"}},
		"definitions":{"y":{"type":"integer"}},"items":{"$ref":"#/definitions/y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ve := s.ValidateJSON([]byte(`{"a":1}`)); ve == nil || ve.Pointer != "/a" {
		t.Fatalf("got %+v", ve)
	}
}

func TestEscapeAttemptsFail(t *testing.T) {
	outsideDir := t.TempDir()
	outsideFile := filepath.Join(outsideDir, "x.json")
	if err := os.WriteFile(outsideFile, []byte(outsideSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := story(t, map[string]string{
		"x.json":                   outsideSchema, // in the story dir, but not under schemas/
		"schemas/dotdot.json":      `{"properties":{"a":{"$ref":"../x.json"}}}`,
		"schemas/deep.json":        `{"properties":{"a":{"$ref":"sub/../../x.json"}}}`,
		"schemas/abs.json":         `{"properties":{"a":{"$ref":"` + filepath.ToSlash(outsideFile) + `"}}}`,
		"schemas/fileurl.json":     `{"properties":{"a":{"$ref":"file://` + filepath.ToSlash(outsideFile) + `"}}}`,
		"schemas/http.json":        `{"properties":{"a":{"$ref":"http://127.0.0.1:1/x.json"}}}`,
		"schemas/https.json":       `{"items":{"$ref":"https://example.com/x.json#/a"}}`,
		"schemas/pct.json":         `{"$ref":"%2e%2e/x.json"}`,
		"schemas/viaid.json":       `{"$id":"https://example.com/s/root.json","properties":{"a":{"$ref":"other.json"}}}`,
		"schemas/nested.json":      `{"$ref":"inner/hop.json"}`,
		"schemas/inner/hop.json":   `{"allOf":[{"$ref":"../../x.json"}]}`,
		"schemas/uselink.json":     `{"$ref":"link.json"}`,
		"schemas/dynref.json":      `{"$dynamicRef":"../x.json"}`,
		"schemas/schemaurl.json":   `{"$schema":"file://` + filepath.ToSlash(outsideFile) + `"}`,
		"schemas/ok-meta-ref.json": `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`,
	})
	if err := os.Symlink(outsideFile, filepath.Join(dir, "schemas", "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outsideDir, filepath.Join(dir, "schemas", "linkdir")); err != nil {
		t.Fatal(err)
	}
	c := NewCompiler(dir)

	cases := []struct {
		path, file, pointer, ref, msgPart string
	}{
		{"schemas/dotdot.json", "schemas/dotdot.json", "/properties/a/$ref", "../x.json", "resolves outside"},
		{"schemas/deep.json", "schemas/deep.json", "/properties/a/$ref", "sub/../../x.json", "resolves outside"},
		{"schemas/abs.json", "schemas/abs.json", "/properties/a/$ref", filepath.ToSlash(outsideFile), "resolves outside"},
		{"schemas/fileurl.json", "schemas/fileurl.json", "/properties/a/$ref", "file://" + filepath.ToSlash(outsideFile), "resolves outside"},
		{"schemas/http.json", "schemas/http.json", "/properties/a/$ref", "http://127.0.0.1:1/x.json", "http: URL"},
		{"schemas/https.json", "schemas/https.json", "/items/$ref", "https://example.com/x.json#/a", "never fetched"},
		{"schemas/viaid.json", "schemas/viaid.json", "/properties/a/$ref", "other.json", "https: URL"},
		{"schemas/nested.json", "schemas/inner/hop.json", "/allOf/0/$ref", "../../x.json", "resolves outside"},
		{"schemas/dynref.json", "schemas/dynref.json", "/$dynamicRef", "../x.json", "resolves outside"},
		{"schemas/uselink.json", "schemas/uselink.json", "/$ref", "link.json", "symlink leading outside"},
		{"schemas/link.json", "schemas/link.json", "", "", "symlink leading outside"},
		{"schemas/linkdir/x.json", "schemas/linkdir/x.json", "", "", "symlink leading outside"},
		{"schemas/schemaurl.json", "schemas/schemaurl.json", "", "", "outside"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			_, err := c.Compile(tc.path)
			ce := mustCompileErr(t, err)
			if ce.File != tc.file || ce.Pointer != tc.pointer || ce.Ref != tc.ref || !strings.Contains(ce.Message, tc.msgPart) {
				t.Fatalf("got %#v\nwant file %q pointer %q ref %q message containing %q", ce, tc.file, tc.pointer, tc.ref, tc.msgPart)
			}
			if tc.ref != "" && !strings.Contains(err.Error(), tc.ref) {
				t.Fatalf("Error() %q does not name the ref", err)
			}
			if !errors.Is(err, ErrOutsideRoot) {
				t.Fatalf("%v does not match ErrOutsideRoot", err)
			}
		})
	}

	// %2e%2e is not a dot segment: it names a file literally called ".." + "/x.json"
	// inside the root, which does not exist. It must not reach the outside x.json.
	t.Run("percent-encoded dots", func(t *testing.T) {
		_, err := c.Compile("schemas/pct.json")
		mustCompileErr(t, err)
	})

	t.Run("metaschema refs are built in", func(t *testing.T) {
		if _, err := c.Compile("schemas/ok-meta-ref.json"); err != nil {
			t.Fatal(err)
		}
	})

	for _, p := range []string{"../x.json", outsideFile, "schemas/../../x.json", "file://" + outsideFile, "http://127.0.0.1:1/x.json", ""} {
		t.Run("path "+p, func(t *testing.T) {
			_, err := c.Compile(p)
			ce := mustCompileErr(t, err)
			if ce.File != p {
				t.Fatalf("File = %q, want the path as given %q", ce.File, p)
			}
			if p != "" && !errors.Is(err, ErrOutsideRoot) {
				t.Fatalf("%v does not match ErrOutsideRoot", err)
			}
			if _, err := readFile(c, nil, p); err == nil {
				t.Fatal("ReadFile read outside the root")
			}
		})
	}
	// A symlink inside the story leading out of it is refused for a file
	// outside schemas/ too.
	if err := os.Symlink(outsideFile, filepath.Join(dir, "away.json")); err != nil {
		t.Fatal(err)
	}
	_, err := c.Compile("away.json")
	if ce := mustCompileErr(t, err); !strings.Contains(ce.Message, "symlink leading outside the story directory") || !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("got %v", err)
	}
}

// TestSchemaOutsideSchemasDir: a with.schema file may lie anywhere in the
// story directory (seed 000 §2); its $refs resolve against schemas/ (§5)
// and cannot leave it, even towards the file's own directory.
func TestSchemaOutsideSchemasDir(t *testing.T) {
	dir := story(t, map[string]string{
		"mcp/party.json":       `{"type":"object","properties":{"name":{"$ref":"common.json#/$defs/name"},"kids":{"type":"array","items":{"$ref":"#"}}}}`,
		"mcp/common.json":      `{"$defs":{"name":{"type":"integer"}}}`, // a decoy: refs never resolve here
		"schemas/common.json":  `{"$defs":{"name":{"type":"string","minLength":2}}}`,
		"mcp/sibling.json":     `{"$ref":"../mcp/common.json"}`,
		"top.json":             `{"type":"string"}`,
		"mcp/uses-nested.json": `{"$ref":"sub/x.json"}`,
		"schemas/sub/x.json":   `{"$ref":"../common.json#/$defs/name"}`,
	})
	c := NewCompiler(dir)
	s, err := c.Compile("mcp/party.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != "mcp/party.json" {
		t.Errorf("Path = %q", s.Path)
	}
	if ve := s.ValidateJSON([]byte(`{"name":"ab","kids":[{"name":"cd"}]}`)); ve != nil {
		t.Fatalf("valid document refused: %v", ve)
	}
	if ve := s.ValidateJSON([]byte(`{"name":3}`)); ve == nil || ve.Pointer != "/name" || ve.Constraint != "type" {
		t.Fatalf("the ref must resolve to schemas/common.json: %+v", ve)
	}
	b, err := CompileBytes("sent", s.Bundled)
	if err != nil {
		t.Fatalf("bundle: %v\n%s", err, s.Bundled)
	}
	if b.ValidateJSON([]byte(`{"name":"ab","kids":[{"name":"x"}]}`)) == nil || b.ValidateJSON([]byte(`{"kids":[{"name":"xy"}]}`)) != nil {
		t.Fatalf("the bundle validates differently:\n%s", s.Bundled)
	}
	// The same file by every spelling a story may use, and one at the
	// story's top named through schemas/..: one cached schema each.
	for _, p := range []string{"./mcp/party.json", filepath.Join(dir, "mcp/party.json")} {
		if again, err := c.Compile(p); err != nil || again != s {
			t.Fatalf("%s: %v (a second compile: %v)", p, err, again != s)
		}
	}
	for _, p := range []string{"top.json", "schemas/../top.json"} {
		if _, err := c.Compile(p); err != nil {
			t.Fatalf("a schema at the story's top (%s): %v", p, err)
		}
	}
	if _, err := c.Compile("mcp/none.json"); err == nil || !strings.Contains(err.Error(), "mcp/none.json") || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing file: %v", err)
	}
	if s, err := c.Compile("mcp/uses-nested.json"); err != nil || s.ValidateJSON([]byte(`"a"`)) == nil {
		t.Fatalf("nested relative refs under schemas/: %v", err)
	}
	_, err = c.Compile("mcp/sibling.json")
	ce := mustCompileErr(t, err)
	if ce.File != "mcp/sibling.json" || ce.Pointer != "/$ref" || !errors.Is(err, ErrOutsideRoot) { // the words: pkg/story's broken/schema golden
		t.Fatalf("got %#v", ce)
	}
}

func TestCompileErrorsNameFileAndPointer(t *testing.T) {
	dir := story(t, map[string]string{
		"schemas/badtype.json":  `{"properties":{"a":{"type":5}}}`,
		"schemas/badjson.json":  "{\n  \"type\": \"object\",\n}",
		"schemas/missing.json":  `{"properties":{"a":{"$ref":"nope.json"}}}`,
		"schemas/badptr.json":   `{"properties":{"a":{"$ref":"#/$defs/none"}}}`,
		"schemas/badptr2.json":  `{"properties":{"a":{"$ref":"other.json#/$defs/none"}}}`,
		"schemas/other.json":    `{"$defs":{}}`,
		"schemas/badregex.json": `{"properties":{"a":{"pattern":"(" }}}`,
		"schemas/badinner.json": `{"$ref":"inner.json"}`,
		"schemas/inner.json":    `{"minLength":"x"}`,
	})
	c := NewCompiler(dir)
	cases := []struct {
		path, file, pointer, msgPart string
	}{
		{"schemas/badtype.json", "schemas/badtype.json", "/properties/a/type", "not a valid JSON Schema"},
		{"schemas/badjson.json", "schemas/badjson.json", "", "line 3, column 1"},
		{"schemas/missing.json", "schemas/missing.json", "/properties/a/$ref", "does not exist"},
		{"schemas/badptr.json", "schemas/badptr.json", "/properties/a/$ref", "points at nothing"},
		{"schemas/badptr2.json", "schemas/badptr2.json", "/properties/a/$ref", "points at nothing"},
		{"schemas/badregex.json", "schemas/badregex.json", "/properties/a/pattern", "regex"},
		{"schemas/badinner.json", "schemas/inner.json", "/minLength", "not a valid JSON Schema"},
		{"schemas/absent.json", "schemas/absent.json", "", "does not exist"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			_, err := c.Compile(tc.path)
			ce := mustCompileErr(t, err)
			if ce.File != tc.file || ce.Pointer != tc.pointer || !strings.Contains(ce.Message, tc.msgPart) {
				t.Fatalf("got %#v (%v)\nwant file %q pointer %q message containing %q", ce, err, tc.file, tc.pointer, tc.msgPart)
			}
			if !strings.Contains(err.Error(), tc.file) {
				t.Fatalf("Error() %q does not name the file", err)
			}
			if errors.Is(err, ErrOutsideRoot) {
				t.Fatalf("%v wrongly matches ErrOutsideRoot", err)
			}
		})
	}
	// Errors are cached like successes: the same value comes back.
	_, e1 := c.Compile("schemas/badtype.json")
	_, e2 := c.Compile("schemas/badtype.json")
	if e1 != e2 {
		t.Fatal("compile error not cached")
	}
}

func TestNoSchemasDirectory(t *testing.T) {
	_, err := NewCompiler(t.TempDir()).Compile("schemas/v.json")
	ce := mustCompileErr(t, err)
	if !strings.Contains(ce.Message, "no schemas directory") {
		t.Fatalf("got %v", err)
	}
}

func TestCompileBytesRefusesFileRefs(t *testing.T) {
	for _, ref := range []string{"other.json", "../x.json", "/etc/passwd", "file:///etc/passwd", "http://127.0.0.1:1/x"} {
		_, err := CompileBytes("mem.json", []byte(`{"properties":{"a":{"$ref":"`+ref+`"}}}`))
		ce := mustCompileErr(t, err)
		if ce.File != "mem.json" || ce.Pointer != "/properties/a/$ref" || ce.Ref != ref || !strings.Contains(ce.Message, "self-contained") || !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("ref %q: got %#v", ref, ce)
		}
	}
	_, err := CompileBytes("bad.json", []byte(`{"type":`))
	ce := mustCompileErr(t, err)
	if ce.File != "bad.json" || ce.Message != "not valid JSON: line 1, column 9: the JSON ends early (cut short?); fix the schema file's syntax" {
		t.Fatalf("got %#v", ce)
	}
}

func TestConcurrentCompileAndValidate(t *testing.T) {
	dir := story(t, map[string]string{"schemas/verdict.json": verdictSchema})
	c := NewCompiler(dir)
	var wg sync.WaitGroup
	got := make([]*Schema, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := c.Compile("schemas/verdict.json")
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = s
			for range 20 {
				if ve := s.ValidateJSON([]byte(`{"verdict":"x"}`)); ve == nil {
					t.Error("invalid accepted")
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range got {
		if s != got[0] {
			t.Fatal("concurrent Compile returned different schemas")
		}
	}
}

func TestCorpusSchemasCompile(t *testing.T) {
	matches, _ := filepath.Glob("testdata/corpus/*/schemas/*.json")
	if len(matches) < 4 {
		t.Fatalf("corpus copies missing: %v", matches)
	}
	for _, m := range matches {
		storyDir := filepath.Dir(filepath.Dir(m))
		if _, err := NewCompiler(storyDir).Compile("schemas/" + filepath.Base(m)); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
}

func TestReadFileAndResolvedStoryPath(t *testing.T) {
	real := story(t, map[string]string{"schemas/v.json": verdictSchema})
	link := filepath.Join(t.TempDir(), "story")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	c := NewCompiler(link)
	raw, err := readFile(c, nil, "schemas/v.json")
	if err != nil || string(raw) != verdictSchema {
		t.Fatalf("ReadFile: %q, %v", raw, err)
	}
	// The resolved spelling of the same file is inside the root too.
	resolved, err := filepath.EvalSymlinks(filepath.Join(link, "schemas", "v.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(resolved)
	if err != nil || s.Path != "schemas/v.json" {
		t.Fatalf("Compile(%s): %v, %v", resolved, s, err)
	}
}

func TestNonRegularFileRefused(t *testing.T) {
	dir := story(t, map[string]string{"schemas/sub/x.json": `{}`, "schemas/top.json": `{"$ref":"sub"}`})
	c := NewCompiler(dir)
	_, err := c.Compile("schemas/sub")
	if ce := mustCompileErr(t, err); !strings.Contains(ce.Message, "not a regular file") {
		t.Fatalf("got %v", err)
	}
	_, err = c.Compile("schemas/top.json")
	if ce := mustCompileErr(t, err); ce.Pointer != "/$ref" || !strings.Contains(ce.Message, "not a regular file") {
		t.Fatalf("got %v", err)
	}
}

// TestDeepSchemaRefused: a schema nesting items 5,000 levels deep (180
// KB) kept validate compiling for minutes (the library checks every
// level against the metaschema again); it is an error naming the bound,
// before the library sees it. Sixty levels compile.
func TestDeepSchemaRefused(t *testing.T) {
	deep := func(levels int) []byte {
		return []byte(`{"type":"object","properties":{"a":` + strings.Repeat(`{"type":"array","items":`, levels) + `{"type":"string"}` + strings.Repeat(`}`, levels) + `}}`)
	}
	// 5,000 levels hold more than MaxSchemaValues values: refused for
	// those, before it is decoded; 200 levels for their depth.
	_, err := CompileBytes("deep.json", deep(5000))
	if ce, ok := errors.AsType[*CompileError](err); !ok || !strings.Contains(ce.Message, "more than 10000 JSON values") {
		t.Errorf("5,000 levels: %v", err)
	}
	_, err = CompileBytes("deep.json", deep(200))
	if ce, ok := errors.AsType[*CompileError](err); !ok || !strings.Contains(ce.Message, "more than 128 levels deep") {
		t.Errorf("200 levels: %v", err)
	}
	if _, err := CompileBytes("ok.json", deep(60)); err != nil {
		t.Errorf("60 levels: %v", err)
	}
}

// An absolute symlink that stays inside schemas/ is read, as upstream reads
// it (validate passed it there and refused it here, calling it a link
// leading outside); one leading out of schemas/, even into the story, is
// still refused.
func TestAbsoluteLinkInsideSchemasIsRead(t *testing.T) {
	dir := story(t, map[string]string{
		"schemas/real.json": `{"type":"object","required":["a"]}`,
		"schemas/ref.json":  `{"$ref":"abs.json"}`,
		"x.json":            outsideSchema,
	})
	for link, target := range map[string]string{"abs.json": "schemas/real.json", "tostory.json": "x.json"} {
		if err := os.Symlink(filepath.Join(dir, target), filepath.Join(dir, "schemas", link)); err != nil {
			t.Fatal(err)
		}
	}
	c := NewCompiler(dir)
	for _, p := range []string{"schemas/abs.json", "schemas/ref.json"} {
		s, err := c.Compile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if ve := s.ValidateJSON([]byte(`{}`)); ve == nil {
			t.Fatalf("%s: {} validates; the linked schema was not read", p)
		}
	}
	_, err := c.Compile("schemas/tostory.json")
	if ce := mustCompileErr(t, err); !strings.Contains(ce.Message, "symlink leading outside") || !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("tostory: %v", err)
	}
}

// readFile reads a schema file with the same rules as Compile, through a
// session's files when files is set (nil: read afresh).
func readFile(c *Compiler, files *rootFiles, p string) ([]byte, error) {
	rel, err := c.storyRel(p)
	if err != nil {
		return nil, err
	}
	l := newRootLoader(c, files, rel)
	defer l.close()
	return l.read(rel)
}

// TestSchemasDirLinkedOutIsNotRead: a story whose schemas/ directory is
// itself a symlink leading out of the story directory (to a directory
// outside, anywhere, relative or absolute, there or not) gets one refusal
// that quotes nothing from outside: os.OpenRoot of its path followed the
// link, so validate compiled an outside schema and quoted its broken
// pattern. A link to a directory inside the story is followed.
func TestSchemasDirLinkedOutIsNotRead(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.json"), []byte(`{"title": "CANARY", "properties": {"a": {"pattern": "(CANARY"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"absolute": outside, "relative": filepath.Join("..", "..", filepath.Base(filepath.Dir(outside)), filepath.Base(outside)),
		"missing": filepath.Join(outside, "nothere"), "etc": "/etc",
	} {
		t.Run(name, func(t *testing.T) {
			dir := story(t, map[string]string{"app.yaml": "app: {id: s}\n"})
			if err := os.Symlink(target, filepath.Join(dir, "schemas")); err != nil {
				t.Fatal(err)
			}
			_, err := NewCompiler(dir).Compile("schemas/x.json")
			if err == nil || strings.Contains(err.Error(), "CANARY") || !strings.Contains(err.Error(), "is a symlink leading outside the story directory") {
				t.Errorf("%v; want the link refused, nothing quoted", err)
			}
		})
	}
	for _, abs := range []bool{false, true} {
		dir := story(t, map[string]string{"real/v.json": verdictSchema})
		target := "real"
		if abs {
			target = filepath.Join(dir, "real")
		}
		if err := os.Symlink(target, filepath.Join(dir, "schemas")); err != nil {
			t.Fatal(err)
		}
		if _, err := NewCompiler(dir).Compile("schemas/v.json"); err != nil {
			t.Errorf("schemas/ linked to %s, a directory of the story: %v", target, err)
		}
	}
}
