package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"kitsoki/internal/testing/storytest"
)

// The whole path of a story's schema, for every draft the library
// supports: files written under schemas/, compiled by the Compiler, the
// bundle sent to a plugin (here a receiver that knows nothing of kitsoki:
// a fresh library compiler that may load nothing), and submissions
// validated by kitsoki and by the receiver. Every case and its expected
// verdicts are written for this test from the drafts' texts.

const (
	meta4    = `"$schema":"http://json-schema.org/draft-04/schema#",`
	meta6    = `"$schema":"http://json-schema.org/draft-06/schema#",`
	meta7    = `"$schema":"http://json-schema.org/draft-07/schema#",`
	meta2019 = `"$schema":"https://json-schema.org/draft/2019-09/schema",`
)

var pathStory = map[string]string{
	// draft-04: "id" moves the base URI ("lists/" makes "item.json" the
	// file under lists/, not the decoy beside root.json); an "id" beside
	// "$ref" is ignored; "#tag" is an anchor; an absolute id names an
	// internal resource (never fetched); exclusiveMinimum is a boolean.
	"schemas/d4/root.json": `{` + meta4 + `
  "type": "object",
  "properties": {
    "list":   {"id": "lists/", "type": "array", "items": {"$ref": "item.json"}},
    "tag":    {"$ref": "#tag"},
    "plain":  {"$ref": "common.json#/definitions/positive"},
    "legacy": {"$ref": "common.json#/definitions/positive", "id": "elsewhere/"},
    "node":   {"$ref": "http://example.com/node.json"},
    "mail":   {"type": "string", "format": "email"}
  },
  "definitions": {
    "tag":  {"id": "#tag", "type": "string", "maxLength": 3},
    "node": {"id": "http://example.com/node.json", "type": "object", "properties": {"next": {"$ref": "http://example.com/node.json"}}}
  }
}`,
	"schemas/d4/lists/item.json": `{` + meta4 + ` "type": "integer", "minimum": 1}`,
	"schemas/d4/item.json":       `{` + meta4 + ` "type": "string"}`,
	"schemas/d4/common.json":     `{` + meta4 + ` "definitions": {"positive": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}`,

	// draft-06: numeric exclusiveMaximum, contains, propertyNames, a
	// boolean schema across files, format asserted.
	"schemas/d6/root.json": `{` + meta6 + `
  "type": "object",
  "propertyNames": {"pattern": "^[a-z]+$"},
  "properties": {
    "n": {"$ref": "defs.json#/definitions/n"},
    "c": {"contains": {"const": 3}},
    "f": {"$ref": "defs.json#/definitions/never"},
    "e": {"type": "string", "format": "email"}
  }
}`,
	"schemas/d6/defs.json": `{` + meta6 + ` "definitions": {"n": {"type": "number", "exclusiveMaximum": 10}, "never": false}}`,

	// draft-07: if/then across files, "$id" beside "$ref" ignored, format
	// asserted.
	"schemas/d7/root.json": `{` + meta7 + `
  "type": "object",
  "properties": {
    "size": {"$ref": "defs.json#/definitions/size"},
    "kind": {"$ref": "defs.json#/definitions/kind", "$id": "nowhere/"},
    "mail": {"type": "string", "format": "email"}
  },
  "if": {"properties": {"size": {"const": "l"}}, "required": ["size"]},
  "then": {"required": ["mail"]}
}`,
	"schemas/d7/defs.json": `{` + meta7 + ` "definitions": {"size": {"enum": ["s", "m", "l"]}, "kind": {"type": "string", "enum": ["a", "b"]}}}`,

	// 2019-09: unevaluatedItems after additionalItems (all items
	// evaluated), and beside an additionalItems that items leaves
	// ignored; format is an annotation.
	"schemas/d2019/root.json": `{` + meta2019 + `
  "type": "object",
  "properties": {
    "t": {"$ref": "tuples.json"},
    "u": {"$ref": "tuples.json#/$defs/ignored"},
    "m": {"type": "string", "format": "email"}
  }
}`,
	"schemas/d2019/tuples.json": `{` + meta2019 + `
  "items": [{"type": "string"}], "additionalItems": true, "unevaluatedItems": false,
  "$defs": {"ignored": {"additionalItems": {"type": "number"}, "unevaluatedItems": {"type": "string"}}}
}`,
	// 2019-09: $recursiveRef extends across files (a compound bundle).
	"schemas/d2019/tree.json":   `{` + meta2019 + ` "$recursiveAnchor": true, "type": "object", "properties": {"data": true, "children": {"type": "array", "items": {"$recursiveRef": "#"}}}}`,
	"schemas/d2019/strict.json": `{` + meta2019 + ` "$recursiveAnchor": true, "$ref": "tree.json", "unevaluatedProperties": false}`,

	// 2020-12: $dynamicRef across files (a compound bundle) and within one
	// file of $id resources (sent as written); relative refs across
	// directories; prefixItems with unevaluatedItems; format an annotation.
	"schemas/d2020/tree.json":   `{"$dynamicAnchor": "node", "type": "object", "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}`,
	"schemas/d2020/strict.json": `{"$dynamicAnchor": "node", "$ref": "tree.json", "unevaluatedProperties": false}`,
	"schemas/d2020/onefile.json": `{
  "$id": "https://example.com/strict-tree", "$dynamicAnchor": "node", "$ref": "tree", "unevaluatedProperties": false,
  "$defs": {"tree": {"$id": "tree", "$dynamicAnchor": "node", "type": "object",
    "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}}
}`,
	"schemas/d2020/top.json": `{
  "type": "object",
  "properties": {
    "v":    {"$ref": "common/verdict.json"},
    "pair": {"prefixItems": [{"type": "string"}, {"$ref": "common/defs.json#count"}], "unevaluatedItems": false},
    "m":    {"type": "string", "format": "email"}
  }
}`,
	"schemas/d2020/common/verdict.json": `{"$ref": "../leaf.json"}`,
	"schemas/d2020/common/defs.json":    `{"$defs": {"count": {"$anchor": "count", "type": "integer", "minimum": 0}}}`,
	"schemas/d2020/leaf.json":           `{"type": "string", "enum": ["pass", "fail"]}`,
	// 2020-12 with a draft-07 resource inside (a compound bundle keeps
	// its draft: items as a list is a tuple there).
	"schemas/d2020/mixed.json": `{"type": "object", "properties": {"t": {"$ref": "leaf.json"},
  "old": {"$id": "old.json", ` + meta7 + ` "items": [{"type": "string"}]}}}`,
}

// pathCases: per schema, whether it is sent as written, and submissions
// with the verdict every draft-conforming validator gives.
var pathCases = []struct {
	path     string
	verbatim bool
	valid    []string
	invalid  []string
}{
	{"schemas/d4/root.json", false,
		[]string{`{"list":[1,2],"tag":"abc","plain":0.5,"legacy":1,"node":{"next":{"next":{}}}}`, `{"mail":"a@b.co"}`},
		[]string{`{"list":["x"]}`, `{"list":[0]}`, `{"tag":"abcd"}`, `{"plain":0}`, `{"legacy":-1}`, `{"node":{"next":{"next":5}}}`, `{"mail":"nope"}`}},
	{"schemas/d6/root.json", false,
		[]string{`{"n":9.5,"c":[1,3]}`, `{"e":"a@b.co"}`, `{}`},
		[]string{`{"n":10}`, `{"c":[1]}`, `{"N":1}`, `{"f":1}`, `{"e":"nope"}`}},
	{"schemas/d7/root.json", false,
		[]string{`{"size":"m"}`, `{"size":"l","mail":"a@b.co"}`, `{"kind":"a"}`},
		[]string{`{"size":"xl"}`, `{"size":"l"}`, `{"mail":"nope"}`, `{"kind":"c"}`}},
	{"schemas/d2019/root.json", false,
		[]string{`{"t":["foo",42]}`, `{"u":["foo","bar"]}`, `{"m":"nope"}`},
		[]string{`{"t":[42]}`, `{"u":["foo",42]}`}},
	{"schemas/d2019/strict.json", false,
		[]string{`{"children":[{"data":1,"children":[]}]}`},
		[]string{`{"children":[{"daat":1}]}`, `{"extra":1}`}},
	{"schemas/d2019/tree.json", true,
		[]string{`{"children":[{"daat":1}]}`},
		[]string{`{"children":[1]}`}},
	{"schemas/d2020/strict.json", false,
		[]string{`{"children":[{"data":1,"children":[]}]}`},
		[]string{`{"children":[{"daat":1}]}`, `{"extra":1}`}},
	{"schemas/d2020/onefile.json", true,
		[]string{`{"children":[{"data":1}]}`},
		[]string{`{"children":[{"daat":1}]}`}},
	{"schemas/d2020/mixed.json", false,
		[]string{`{"t":"pass","old":["a",1]}`},
		[]string{`{"old":[1]}`, `{"t":"maybe"}`}},
	{"schemas/d2020/top.json", false,
		[]string{`{"v":"pass","pair":["a",3]}`, `{"m":"nope"}`},
		[]string{`{"v":"maybe"}`, `{"pair":["a",-1]}`, `{"pair":["a",1,2]}`, `{"pair":[1]}`}},
}

// receive compiles a sent schema as a plugin using the library would,
// with nothing loadable: a reference left pointing outside the document
// fails here.
func receive(t *testing.T, sent []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sent))
	if err != nil {
		t.Fatalf("the sent schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseAll{t})
	if err := c.AddResource("urn:sent", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("urn:sent")
	if err != nil {
		t.Fatalf("the sent schema does not compile on its own: %v\n%s", err, sent)
	}
	return s
}

type refuseAll struct{ t *testing.T }

func (r refuseAll) Load(u string) (any, error) {
	r.t.Errorf("the receiver had to load %s", u)
	return nil, errors.New("nothing is loadable")
}

func TestWholePathEveryDraft(t *testing.T) {
	c := NewCompiler(story(t, pathStory))
	for _, tc := range pathCases {
		t.Run(tc.path, func(t *testing.T) {
			s, err := c.Compile(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if verbatim := bytes.Equal(s.Bundled, s.Raw); verbatim != tc.verbatim {
				t.Fatalf("sent as written: %v, want %v\n%s", verbatim, tc.verbatim, s.Bundled)
			}
			if strings.Contains(string(s.Bundled), "file:") || strings.Contains(string(s.Bundled), c.storyDir) {
				t.Fatalf("the bundle names local files:\n%s", s.Bundled)
			}
			got := receive(t, s.Bundled)
			check := func(doc string, want bool) {
				var v any
				if err := json.Unmarshal([]byte(doc), &v); err != nil {
					t.Fatal(err)
				}
				if ve := s.ValidateJSON([]byte(doc)); (ve == nil) != want {
					t.Errorf("kitsoki: %s valid=%v, want %v (%v)", doc, ve == nil, want, ve)
				}
				if err := got.Validate(v); (err == nil) != want {
					t.Errorf("receiver: %s valid=%v, want %v (%v)\n%s", doc, err == nil, want, err, s.Bundled)
				}
			}
			for _, d := range tc.valid {
				check(d, true)
			}
			for _, d := range tc.invalid {
				check(d, false)
			}
		})
	}
}

// TestCompoundBundleNamesFilesByPath: a bundle whose files use dynamic
// references keeps each file a resource, named by its path under
// kitsoki:///; a plain one holds only pointers.
func TestCompoundBundleNamesFilesByPath(t *testing.T) {
	c := NewCompiler(story(t, pathStory))
	s, err := c.Compile("schemas/d2020/strict.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(s.Bundled, &doc); err != nil {
		t.Fatal(err)
	}
	tree, _ := doc["$defs"].(map[string]any)["d2020/tree.json"].(map[string]any)
	if doc["$id"] != "kitsoki:///schemas/d2020/strict.json" || tree["$id"] != "kitsoki:///schemas/d2020/tree.json" ||
		doc["$ref"] != "kitsoki:///schemas/d2020/tree.json" || tree["$dynamicAnchor"] != "node" {
		t.Fatalf("compound bundle:\n%s", s.Bundled)
	}
	p, err := c.Compile("schemas/d2020/top.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	collectRefs(t, p.Bundled, &refs)
	for _, r := range refs {
		if !strings.HasPrefix(r, "#/$defs/") {
			t.Errorf("plain bundle keeps %q:\n%s", r, p.Bundled)
		}
	}
}

// TestRefsStayUnderSchemas: a $ref leaving schemas/ is refused at compile
// time naming the file, the pointer and the ref, and the file it names is
// never read; an http(s) $ref is refused without a request.
func TestRefsStayUnderSchemas(t *testing.T) {
	srv, requests := storytest.JSONServer(t, func(*http.Request) string { return `{"type":"string"}` })
	dir := story(t, map[string]string{
		"outside.json":            outsideSchema,
		"schemas/escape.json":     `{"properties":{"a":{"$ref":"../outside.json"}}}`,
		"schemas/sub/deep.json":   `{"items":{"$ref":"../../outside.json#/title"}}`,
		"schemas/remote.json":     `{"properties":{"a":{"$ref":"` + srv.URL + `/s.json"}}}`,
		"schemas/remote-d4.json":  `{` + meta4 + ` "properties":{"a":{"$ref":"` + srv.URL + `/s.json"}}}`,
		"schemas/remote-via.json": `{"$ref":"via.json"}`,
		"schemas/via.json":        `{"$id":"` + srv.URL + `/base/","properties":{"a":{"$ref":"s.json"}}}`,
		"schemas/dyn.json":        `{"$dynamicRef":"` + srv.URL + `/s.json#x"}`,
	})
	c := NewCompiler(dir)
	for _, tc := range []struct{ path, file, pointer, ref, part string }{
		{"schemas/escape.json", "schemas/escape.json", "/properties/a/$ref", "../outside.json", "resolves outside"},
		{"schemas/sub/deep.json", "schemas/sub/deep.json", "/items/$ref", "../../outside.json#/title", "resolves outside"},
		{"schemas/remote.json", "schemas/remote.json", "/properties/a/$ref", srv.URL + "/s.json", "never fetched"},
		{"schemas/remote-d4.json", "schemas/remote-d4.json", "/properties/a/$ref", srv.URL + "/s.json", "never fetched"},
		{"schemas/remote-via.json", "schemas/via.json", "/properties/a/$ref", "s.json", "never fetched"},
		{"schemas/dyn.json", "schemas/dyn.json", "/$dynamicRef", srv.URL + "/s.json#x", "never fetched"},
	} {
		_, err := c.Compile(tc.path)
		ce := mustCompileErr(t, err)
		if ce.File != tc.file || ce.Pointer != tc.pointer || ce.Ref != tc.ref || !strings.Contains(ce.Message, tc.part) || !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("%s: got %#v", tc.path, ce)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Fatalf("the compiler made %d network requests", n)
	}
}

// TestFormatAsTheLibraryAsserts: format is asserted in drafts 4 to 7 and
// an annotation in 2019-09 and 2020-12 (unless a metaschema requires the
// format-assertion vocabulary), as the library does by default.
func TestFormatAsTheLibraryAsserts(t *testing.T) {
	for _, tc := range []struct {
		meta   string
		assert bool
	}{
		{meta4, true}, {meta6, true}, {meta7, true}, {meta2019, false}, {"", false},
	} {
		s, err := CompileBytes("f.json", []byte(`{`+tc.meta+` "properties":{"m":{"format":"email"},"d":{"format":"date"},"i":{"format":"ipv4"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range []string{`{"m":"nope"}`, `{"d":"2023-02-29"}`, `{"i":"256.1.1.1"}`} {
			if ve := s.ValidateJSON([]byte(doc)); (ve != nil) != tc.assert {
				t.Errorf("%q %s: %v, want asserted=%v", tc.meta, doc, ve, tc.assert)
			}
		}
		if ve := s.ValidateJSON([]byte(`{"m":"a@b.co","d":"2024-02-29","i":"10.0.0.1"}`)); ve != nil {
			t.Errorf("%q: valid formats refused: %v", tc.meta, ve)
		}
	}
}

// TestBundleRefusals: what a bundle cannot carry is refused at compile
// time, naming the file, the place and what to write instead.
func TestBundleRefusals(t *testing.T) {
	dir := story(t, map[string]string{
		"outside.json": outsideSchema,
		// c.json is reached only through a subschema nothing uses.
		"schemas/a.json": `{"properties":{"x":{"$ref":"b.json"}}}`,
		"schemas/b.json": `{"type":"string","$defs":{"unused":{"$ref":"c.json"}}}`,
		"schemas/c.json": `{"$ref":"../outside.json"}`,
		// draft-07 files cannot keep a subschema of another draft apart.
		"schemas/d7.json":     `{` + meta7 + ` "properties":{"x":{"$ref":"d7defs.json"},"y":{"$id":"y.json","$schema":"https://json-schema.org/draft/2020-12/schema"}}}`,
		"schemas/d7defs.json": `{` + meta7 + ` "type":"string"}`,
		"schemas/d7same.json": `{` + meta7 + ` "properties":{"x":{"$ref":"d7defs.json"},"y":{"$id":"y.json",` + meta7 + ` "type":"integer"}}}`,
		// a compound bundle names each file by its path.
		"schemas/dyn.json":   `{"$dynamicAnchor":"n","properties":{"x":{"$ref":"named.json"}}}`,
		"schemas/named.json": `{"$id":"other-name.json","type":"string"}`,
	})
	c := NewCompiler(dir)
	_, err := c.Compile("schemas/a.json")
	if ce := mustCompileErr(t, err); ce.File != "schemas/c.json" || ce.Pointer != "/$ref" || !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("a ref leaving schemas/ in a file reached only through an unused subschema: %#v", ce)
	}
	_, err = c.Compile("schemas/d7.json")
	if ce := mustCompileErr(t, err); ce.File != "schemas/d7.json" || ce.Pointer != "/properties/y/$schema" || !strings.Contains(ce.Message, "remove this \"$schema\"") {
		t.Fatalf("got %#v", ce)
	}
	s, err := c.Compile("schemas/d7same.json")
	if err != nil || s.ValidateJSON([]byte(`{"x":"a","y":1}`)) != nil || s.ValidateJSON([]byte(`{"y":"a"}`)) == nil {
		t.Fatalf("a nested $schema naming the bundle's own draft: %v", err)
	}
	receive(t, s.Bundled)
	_, err = c.Compile("schemas/dyn.json")
	if ce := mustCompileErr(t, err); ce.File != "schemas/named.json" || ce.Pointer != "/$id" || !strings.Contains(ce.Message, "remove the $id") {
		t.Fatalf("got %#v", ce)
	}
}
