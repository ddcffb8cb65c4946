package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// bundleStory is a story whose schemas reference each other across files
// and directories: relative pointers, an anchor, a nested $id resource, a
// cycle back into the root, a recursive definition and a draft-07 pair.
var bundleStory = map[string]string{
	"schemas/verdict.json": `{
  "$defs": {"local": {"type": "string", "minLength": 2}},
  "type": "object",
  "required": ["action", "target"],
  "properties": {
    "action": {"$ref": "common.json#/$defs/action"},
    "target": {"$ref": "common.json#target"},
    "items":  {"type": "array", "items": {"$ref": "sub/item.json"}},
    "note":   {"$ref": "#/$defs/local"},
    "tree":   {"$ref": "tree.json"},
    "tagged": {"$ref": "common.json#/$defs/tagged"}
  },
  "additionalProperties": false
}`,
	"schemas/common.json": `{
  "$defs": {
    "action": {"enum": ["merge", "close", "wait"]},
    "target": {"$anchor": "target", "type": "object", "required": ["id"],
               "properties": {"id": {"type": "integer", "minimum": 1}, "label": {"$ref": "verdict.json#/$defs/local"}}},
    "tagged": {"$id": "tagged.json", "type": "object", "properties": {"tag": {"$ref": "#/$defs/tag"}},
               "$defs": {"tag": {"type": "string", "pattern": "^[a-z]+$"}}}
  }
}`,
	"schemas/sub/item.json": `{
  "type": "object",
  "required": ["kind"],
  "properties": {"kind": {"$ref": "../common.json#/$defs/action"}, "weight": {"type": "number", "exclusiveMaximum": 10}}
}`,
	"schemas/tree.json": `{
  "type": "object",
  "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "node.json"}}}
}`,
	"schemas/node.json": `{"$ref": "tree.json", "unevaluatedProperties": false}`,
	"schemas/d7/root.json": `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {"size": {"$ref": "defs.json#/definitions/size", "type": "string"}},
  "required": ["size"]
}`,
	"schemas/d7/defs.json": `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "definitions": {"size": {"enum": ["s", "m", "l"]}}
}`,
	"schemas/plain.json":      `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`,
	"schemas/legacy.json":     `{"type":"object","properties":{"n":{"$ref":"legacydefs.json#/definitions/n"},"e":{"$ref":"legacydefs.json#/definitions/e"}}}`,
	"schemas/legacydefs.json": `{"definitions":{"n":{"type":"integer","multipleOf":3},"e":{"$ref":"#/definitions/n","maximum":9}}}`,
}

// bundleCorpus holds, per schema, submissions that the source accepts and
// ones it rejects; each must get the same verdict from the bundle.
var bundleCorpus = map[string][]string{
	"schemas/verdict.json": {
		`{"action":"merge","target":{"id":3}}`,
		`{"action":"merge","target":{"id":3,"label":"ok"}}`,
		`{"action":"merge","target":{"id":3,"label":"x"}}`,
		`{"action":"push","target":{"id":3}}`,
		`{"action":"close","target":{"id":0}}`,
		`{"action":"wait","target":{"id":1},"items":[{"kind":"close","weight":9.5}]}`,
		`{"action":"wait","target":{"id":1},"items":[{"kind":"close","weight":10}]}`,
		`{"action":"wait","target":{"id":1},"items":[{"weight":1}]}`,
		`{"action":"wait","target":{"id":1},"note":"hi"}`,
		`{"action":"wait","target":{"id":1},"note":"h"}`,
		`{"action":"wait","target":{"id":1},"tree":{"value":1,"children":[{"value":2,"children":[{"value":3}]}]}}`,
		`{"action":"wait","target":{"id":1},"tree":{"value":1,"children":[{"value":2,"children":[{"value":"3"}]}]}}`,
		`{"action":"wait","target":{"id":1},"tree":{"children":[{"extra":true}]}}`,
		`{"action":"wait","target":{"id":1},"tagged":{"tag":"abc"}}`,
		`{"action":"wait","target":{"id":1},"tagged":{"tag":"ABC"}}`,
		`{"action":"wait","target":{"id":1},"other":1}`,
		`{"target":{"id":1}}`,
		`[]`,
		`null`,
	},
	"schemas/d7/root.json": {
		`{"size":"m"}`,
		`{"size":"xl"}`,
		`{"size":1}`,
		`{}`,
	},
	"schemas/plain.json":  {`{"a":"x"}`, `{"a":1}`},
	"schemas/legacy.json": {`{"n":3}`, `{"n":4}`, `{"e":6}`, `{"e":12}`, `{"e":5}`, `{"n":"3"}`},
}

func TestBundleValidatesTheSameDocuments(t *testing.T) {
	c := NewCompiler(story(t, bundleStory))
	for path, docs := range bundleCorpus {
		src, err := c.Compile(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		bundled, err := CompileBytes(path, src.Bundled)
		if err != nil {
			t.Fatalf("%s: the bundle does not compile on its own: %v\n%s", path, err, src.Bundled)
		}
		accepted, rejected := 0, 0
		for _, d := range docs {
			want := src.ValidateJSON([]byte(d))
			got := bundled.ValidateJSON([]byte(d))
			if (want == nil) != (got == nil) {
				t.Errorf("%s: %s: source verdict %v, bundle verdict %v\n%s", path, d, want, got, src.Bundled)
			}
			if want == nil {
				accepted++
			} else {
				rejected++
			}
		}
		if accepted == 0 || rejected == 0 {
			t.Errorf("%s: the corpus must hold both valid (%d) and invalid (%d) submissions", path, accepted, rejected)
		}
	}
}

func TestBundleIsSelfContained(t *testing.T) {
	c := NewCompiler(story(t, bundleStory))
	s, err := c.Compile("schemas/verdict.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	collectRefs(t, s.Bundled, &refs)
	if len(refs) == 0 {
		t.Fatal("the bundle holds no $ref at all")
	}
	for _, r := range refs {
		if !strings.HasPrefix(r, "#") {
			t.Errorf("bundle keeps a non-local $ref %q:\n%s", r, s.Bundled)
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(s.Bundled, &doc); err != nil {
		t.Fatal(err)
	}
	defs := doc["$defs"].(map[string]any)
	for _, k := range []string{"local", "common.json", "sub/item.json", "tree.json", "node.json"} {
		if defs[k] == nil {
			t.Errorf("$defs lacks %q (keys %v)", k, keysOf(defs))
		}
	}
	if strings.Contains(string(s.Bundled), "file:") || strings.Contains(string(s.Bundled), c.schemasDir) {
		t.Errorf("bundle leaks the local path:\n%s", s.Bundled)
	}
	d7, err := c.Compile("schemas/d7/root.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(d7.Bundled), `"definitions"`) || !strings.Contains(string(d7.Bundled), `"#/definitions/d7~1defs.json/definitions/size"`) {
		t.Errorf("draft-07 bundle must inline under definitions:\n%s", d7.Bundled)
	}
}

func TestBundleKeepsSelfContainedFilesVerbatim(t *testing.T) {
	c := NewCompiler(story(t, bundleStory))
	s, err := c.Compile("schemas/plain.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Bundled) != bundleStory["schemas/plain.json"] {
		t.Fatalf("a file without external refs must be sent as written, got %s", s.Bundled)
	}
	b, err := CompileBytes("x.json", []byte(verdictSchema))
	if err != nil || string(b.Bundled) != verdictSchema {
		t.Fatalf("CompileBytes: %v %s", err, b.Bundled)
	}
}

func TestBundleRefusesMixedDrafts(t *testing.T) {
	c := NewCompiler(story(t, map[string]string{
		"schemas/a.json": `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"x":{"$ref":"b.json"}}}`,
		"schemas/b.json": `{"type":"string"}`,
	}))
	_, err := c.Compile("schemas/a.json")
	ce := mustCompileErr(t, err)
	if ce.File != "schemas/b.json" || !strings.Contains(ce.Message, "draft 2020-12") || !strings.Contains(ce.Message, "draft-07") || !strings.Contains(ce.Message, `"$schema"`) {
		t.Fatalf("got %v", err)
	}
}

func collectRefs(t *testing.T, raw []byte, out *[]string) {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(n any) {
		switch x := n.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "$ref" {
					if s, ok := e.(string); ok {
						*out = append(*out, s)
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// FuzzBundleVerdicts: for any submission, the bundled schema and its
// source give the same verdict (the corpus above seeds it).
func FuzzBundleVerdicts(f *testing.F) {
	dir := f.TempDir()
	for name, body := range bundleStory {
		mustWrite(f, dir, name, body)
	}
	c := NewCompiler(dir)
	src, err := c.Compile("schemas/verdict.json")
	if err != nil {
		f.Fatal(err)
	}
	bundled, err := CompileBytes("bundle", src.Bundled)
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range bundleCorpus["schemas/verdict.json"] {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, got := src.ValidateJSON(data), bundled.ValidateJSON(data)
		if (want == nil) != (got == nil) {
			t.Fatalf("%q: source %v, bundle %v", data, want, got)
		}
	})
}

// FuzzBundleSchema: for any root schema file beside the fixed files of
// bundleStory, Compile never panics, and when it succeeds the bundle
// compiles on its own and agrees with the source on the corpus.
func FuzzBundleSchema(f *testing.F) {
	for _, name := range []string{"schemas/verdict.json", "schemas/node.json", "schemas/plain.json"} {
		f.Add([]byte(bundleStory[name]))
	}
	f.Add([]byte(`{"$ref":"common.json#target"}`))
	f.Add([]byte(`{"$id":"https://x.test/r.json","properties":{"a":{"$ref":"common.json#/$defs/tagged"}}}`))
	f.Add([]byte(`{"$defs":{"common.json":{"type":"string"}},"properties":{"a":{"$ref":"common.json#/$defs/action"},"b":{"$ref":"#/$defs/common.json"}}}`))
	f.Add([]byte(`{"allOf":[{"$ref":"sub/item.json"},{"$anchor":"target"}]}`))
	f.Add([]byte(`{"$dynamicAnchor":"node","$ref":"tree.json","unevaluatedProperties":false}`))
	f.Add([]byte(`{"$defs":{"x":{"$id":"sub/","$ref":"item.json"}},"properties":{"a":{"$ref":"#/$defs/x"},"b":{"$dynamicRef":"#n"}}}`))
	f.Add([]byte(`{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{"id":"sub/","items":{"$ref":"item.json"}}}}`))
	f.Add([]byte(`{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","$id":"x.json","items":[{"$ref":"common.json#target"}]}}}`))
	dir := f.TempDir()
	for name, body := range bundleStory {
		mustWrite(f, dir, name, body)
	}
	docs := bundleCorpus["schemas/verdict.json"]
	f.Fuzz(func(t *testing.T, root []byte) {
		mustWrite(t, dir, "schemas/fuzz.json", string(root))
		src, err := NewCompiler(dir).Compile("schemas/fuzz.json")
		if err != nil {
			return
		}
		b, err := CompileBytes("bundle", src.Bundled)
		if err != nil {
			t.Fatalf("bundle of %s does not compile: %v\n%s", root, err, src.Bundled)
		}
		for _, d := range docs {
			if (src.ValidateJSON([]byte(d)) == nil) != (b.ValidateJSON([]byte(d)) == nil) {
				t.Fatalf("root %s: verdicts differ on %s\n%s", root, d, src.Bundled)
			}
		}
	})
}
