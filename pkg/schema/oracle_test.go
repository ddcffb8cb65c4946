package schema

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The differential oracle: santhosh-tekuri/jsonschema, the library the
// engine replaced, stays a test-only dependency. The same schema compiled
// by both must be accepted or refused alike, and every instance must get
// the same valid/invalid verdict.

// oracleCompile compiles raw exactly as CompileBytes did before the
// engine: the same ref scan, then the library (draft 2020-12 default).
func oracleCompile(name string, raw []byte) (*jsonschema.Schema, error) {
	doc, err := decodeSchema(name, raw)
	if err != nil {
		return nil, err
	}
	l := &memLoader{name: name}
	u := (&url.URL{Scheme: "kitsoki-mem", Path: "/" + strings.TrimLeft(name, "/")}).String()
	if err := l.scan(u, name, doc); err != nil {
		return nil, err
	}
	return libraryCompile(l, u, doc)
}

// libraryCompile compiles doc, at u, with the library through l.
func libraryCompile(l jsonschema.URLLoader, u string, doc any) (*jsonschema.Schema, error) {
	jc := jsonschema.NewCompiler()
	jc.DefaultDraft(jsonschema.Draft2020)
	jc.UseLoader(l)
	if err := jc.AddResource(u, doc); err != nil {
		return nil, err
	}
	return jc.Compile(u)
}

// oracleCompileFile compiles a story schema file as Compile did before.
func oracleCompileFile(storyDir, rel string) (*jsonschema.Schema, error) {
	c := NewCompiler(storyDir)
	l := newRootLoader(c, nil)
	defer l.close()
	_, doc, u, err := l.load(rel)
	if err != nil {
		return nil, err
	}
	return libraryCompile(l, u, doc)
}

// instancePool is validated against every schema of the differential
// tests: each JSON type, boundary numbers, nesting, unicode, duplicates.
var instancePool = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `1.0`, `1.5`, `-1`, `2`, `3`, `4`, `5`, `9`, `10`, `10.5`, `95`, `0.9`, `0.92`,
	`1e400`, `-1e400`, `1e-400`, `123456789012345678901234567890`, `0.30000000000000004`, `7.0000000000000000001`,
	`""`, `"a"`, `"ab"`, `"abc"`, `"abcd"`, `"pass"`, `"fail"`, `"maybe"`, `"héllo"`, `"日本語"`, `"\ud83d\ude00"`,
	`"2024-02-29"`, `"2023-02-29"`, `"2024-01-01T10:00:00Z"`, `"23:59:60Z"`, `"12:00:00+01:00"`, `"a@b.co"`, `"nope"`,
	`"192.168.0.1"`, `"256.1.1.1"`, `"::1"`, `"fe80::1%eth0"`, `"example.com"`, `"-bad.com"`, `"http://x.test/a"`, `"/rel"`,
	`"P1Y2M"`, `"PT"`, `"P1W"`, `"1.2.3"`, `"01.2.3"`, `"550e8400-e29b-41d4-a716-446655440000"`, `"/a~1b"`, `"/a~2"`, `"0/a"`,
	`"^a+$"`, `"("`, `"{x}"`,
	`[]`, `[1]`, `[1,2]`, `[1,1]`, `[1,1.0]`, `[1,"1"]`, `["a","b","c"]`, `[{"a":1},{"a":1.0}]`, `[[1],[1]]`, `[1,2,3,4,5]`,
	`["x",1,null]`, `[true,false]`, `[{}, []]`,
	`{}`, `{"a":1}`, `{"a":"x"}`, `{"a":null}`, `{"b":1}`, `{"a":1,"b":2}`, `{"a":1,"b":2,"c":3}`, `{"x-y":1}`, `{"foo":{"bar":[]}}`,
	`{"verdict":"pass","intent":"accept","reason":"looks good","confidence":0.9}`,
	`{"verdict":"pass","intent":"accept","reason":"ok","confidence":95}`,
	`{"verdict":"maybe"}`, `{"action":"merge","target":{"id":3}}`, `{"kind":"close","weight":10}`,
	`{"value":1,"children":[{"value":2,"children":[{"value":"3"}]}]}`, `{"name":"n","next":{"name":"m","next":null}}`,
	`{"a":{"a":{"a":1}}}`, `{"":1}`, `{"a":[1,2],"b":{"c":"d"}}`, `{"type":"string"}`, `{"type":5}`, `{"minLength":-1}`,
}

// trickySchemas are written for this test (not taken from any suite):
// each probes a corner of one draft.
var trickySchemas = []string{
	`{}`, `true`, `false`, `{"not":{}}`, `{"type":"integer"}`, `{"type":["string","null"]}`, `{"type":"number","multipleOf":0.01}`,
	`{"multipleOf":3}`, `{"multipleOf":1e-400}`, `{"maximum":1e400}`, `{"minimum":-1e400}`, `{"exclusiveMaximum":10,"exclusiveMinimum":1}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","maximum":10,"exclusiveMaximum":true}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","minimum":1,"exclusiveMinimum":true,"type":"integer"}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","exclusiveMaximum":true}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","exclusiveMaximum":5}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","items":true}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","required":[]}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","enum":[]}`,
	`{"$schema":"http://json-schema.org/draft-06/schema#","enum":[1,1]}`,
	`{"enum":[1,1]}`, `{"enum":[]}`, `{"enum":[1,"1",null,[1],{"a":1}]}`, `{"const":1}`, `{"const":{"a":[1]}}`, `{"const":null}`,
	`{"minLength":2,"maxLength":3}`, `{"minLength":1.0}`, `{"minLength":-1}`, `{"minLength":1.5}`, `{"maxLength":"3"}`,
	`{"pattern":"^a+$"}`, `{"pattern":"é"}`, `{"pattern":"("}`, `{"pattern":"(?=a)"}`, `{"pattern":"\\p{L}+"}`, `{"pattern":5}`,
	`{"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}`, `{"patternProperties":{"(":{}}}`,
	`{"type":5}`, `{"type":"str"}`, `{"type":[]}`, `{"type":["string","string"]}`, `{"required":"x"}`, `{"required":["a","a"]}`,
	`{"required":["a","b"]}`, `{"properties":{"a":{"type":"string"}},"required":["a"]}`, `{"properties":5}`, `{"properties":{"a":5}}`,
	`{"additionalProperties":{"type":"integer"}}`, `{"propertyNames":{"maxLength":1}}`, `{"propertyNames":false}`,
	`{"minProperties":1,"maxProperties":2}`, `{"dependentRequired":{"a":["b"]}}`, `{"dependentRequired":{"a":["b","b"]}}`,
	`{"dependentSchemas":{"a":{"required":["c"]}}}`, `{"dependencies":{"a":["b"],"b":{"minProperties":3}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"]}}`, `{"dependencies":{"a":5}}`,
	`{"items":{"type":"integer"}}`, `{"items":[{"type":"integer"}]}`, `{"prefixItems":[{"type":"integer"}],"items":false}`,
	`{"prefixItems":[]}`, `{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"integer"}],"additionalItems":false}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"},{"type":"integer"}],"additionalItems":{"type":"string"}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","items":{"type":"integer"},"additionalItems":false}`,
	`{"additionalItems":false}`, `{"minItems":1,"maxItems":2}`, `{"uniqueItems":true}`, `{"uniqueItems":"yes"}`,
	`{"contains":{"type":"string"}}`, `{"contains":{"type":"integer"},"minContains":2}`, `{"contains":{"type":"integer"},"maxContains":1}`,
	`{"contains":{"type":"integer"},"minContains":0}`, `{"minContains":2}`,
	`{"$schema":"http://json-schema.org/draft-06/schema#","contains":{"type":"integer"},"minContains":2}`,
	`{"allOf":[{"type":"integer"},{"minimum":2}]}`, `{"anyOf":[{"type":"string"},{"type":"integer"}]}`,
	`{"oneOf":[{"type":"integer"},{"minimum":2}]}`, `{"oneOf":[]}`, `{"allOf":{}}`, `{"not":{"type":"null"}}`,
	`{"if":{"type":"integer"},"then":{"minimum":3},"else":{"type":"string"}}`, `{"then":{"minimum":3}}`, `{"if":false,"else":{"type":"null"}}`,
	`{"$schema":"http://json-schema.org/draft-06/schema#","if":{"type":"integer"},"then":{"minimum":3}}`,
	`{"$defs":{"a":{"type":"integer"}},"$ref":"#/$defs/a","minimum":3}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"integer"}},"$ref":"#/definitions/a","minimum":3}`,
	`{"$ref":"#"}`, `{"allOf":[{"$ref":"#"}]}`, `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
	`{"properties":{"next":{"$ref":"#"}},"type":["object","null"]}`,
	`{"$defs":{"x":{"$anchor":"xa","type":"string"}},"$ref":"#xa"}`, `{"$ref":"#nope"}`, `{"$ref":"#/$defs/none"}`, `{"$ref":"#/a~2"}`,
	`{"$defs":{"a":{"$id":"http://x.test/a.json","$defs":{"b":{"type":"integer"}},"$ref":"#/$defs/b"}},"$ref":"http://x.test/a.json"}`,
	`{"$id":"http://x.test/root.json","$defs":{"a":{"$id":"sub/a.json","type":"integer"}},"$ref":"sub/a.json"}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"a":{"id":"#foo","type":"integer"}},"$ref":"#foo"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"$id":"#foo","type":"integer"}},"$ref":"#foo"}`,
	`{"$id":"http://x.test/r.json#frag"}`, `{"$anchor":"1bad"}`, `{"$anchor":"ok_1"}`,
	`{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, `{"$ref":"http://json-schema.org/draft-07/schema#"}`,
	`{"$schema":"http://json-schema.org/schema#"}`, `{"$schema":5}`, `{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"properties":{"a":{"$recursiveRef":"#"}},"type":"object"}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","$id":"http://x.test/tree","$recursiveAnchor":true,"type":"object","properties":{"kids":{"type":"array","items":{"$recursiveRef":"#"}}},
	  "$defs":{"strict":{"$id":"http://x.test/strict","$recursiveAnchor":true,"$ref":"http://x.test/tree","unevaluatedProperties":false}}}`,
	`{"$id":"http://x.test/list","$dynamicAnchor":"item","type":"array","items":{"$dynamicRef":"#item"}}`,
	`{"$id":"http://x.test/root","$ref":"http://x.test/list","$defs":{"ints":{"$dynamicAnchor":"item","type":"integer"},
	  "list":{"$id":"http://x.test/list","$defs":{"i":{"$dynamicAnchor":"item"}},"type":"array","items":{"$dynamicRef":"#item"}}}}`,
	`{"properties":{"a":{}},"unevaluatedProperties":false}`, `{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`,
	`{"anyOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}],"unevaluatedProperties":false}`,
	`{"oneOf":[{"required":["a"],"properties":{"a":{}}},{"required":["b"],"properties":{"b":{}}}],"unevaluatedProperties":false}`,
	`{"if":{"properties":{"a":{"const":1}}},"then":{"properties":{"b":{}}},"unevaluatedProperties":false}`,
	`{"not":{"properties":{"a":{}}},"unevaluatedProperties":false}`,
	`{"properties":{"foo":{"properties":{"bar":{}},"unevaluatedProperties":false}}}`,
	`{"prefixItems":[{}],"unevaluatedItems":false}`, `{"contains":{"type":"integer"},"unevaluatedItems":false}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","contains":{"type":"integer"},"unevaluatedItems":false}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{}],"unevaluatedItems":{"type":"string"}}`,
	`{"allOf":[{"prefixItems":[{},{}]}],"unevaluatedItems":false}`, `{"unevaluatedItems":{"type":"integer"}}`,
	`{"dependentSchemas":{"a":{"properties":{"b":{}}}},"properties":{"a":{}},"unevaluatedProperties":false}`,
	`{"$ref":"#/$defs/base","$defs":{"base":{"properties":{"a":{}}}},"unevaluatedProperties":false}`,
	`{"format":"email"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"email"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","format":"date"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"date-time"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","format":"time"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"ipv4"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","format":"ipv6"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"hostname"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","format":"uri"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"uri-reference"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","format":"regex"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"json-pointer"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","format":"relative-json-pointer"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"uuid"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","format":"duration"}`, `{"$schema":"http://json-schema.org/draft-07/schema#","format":"uri-template"}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","format":"semver"}`, `{"$schema":"http://json-schema.org/draft-06/schema#","format":"unknown-format"}`,
	`{"format":5}`, `{"contentMediaType":"application/json","contentEncoding":"base64"}`, `{"title":1}`, `{"examples":{}}`,
	`{"$schema":"http://json-schema.org/draft-06/schema#","examples":{}}`, `{"readOnly":"no"}`, `{"deprecated":1}`,
	`{"$comment":5}`, `{"$vocabulary":{"x":true}}`, `{"$defs":5}`, `{"definitions":{"a":5}}`, `{"allOf":[5]}`, `{"items":[]}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[]}`, `{"not":5}`, `{"if":"x"}`, `{"unknownKeyword":{"type":5}}`,
	`{"$ref":"#/unknownKeyword","unknownKeyword":{"type":"integer"}}`, `{"$ref":"#/required","required":["a"]}`,
	`{"$dynamicRef":"#/$defs/a","$defs":{"a":{"type":"string"}}}`, `{"$recursiveRef":"#","type":"object"}`,
	`{"$defs":{"a":{"$anchor":"d"},"b":{"$anchor":"d"}}}`,
	`{"$id":"http://x.test/a","$defs":{"b":{"$id":"http://x.test/a"}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","definitions":{"a":{"type":"string"}},"type":5}`,
	`{"properties":{"a~b":{"type":"integer"},"c/d":{"$ref":"#/properties/a~0b"}}}`,
	`{"maxProperties":0}`, `{"minItems":1e2}`, `{"maxLength":1e30}`,
	`{"$defs":{"a":{"$id":"http://x.test/a","$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"}]}},"$ref":"http://x.test/a"}`,
	`{"$defs":{"a":{"$id":"http://x.test/a","$schema":"http://json-schema.org/draft-04/schema#","maximum":3,"exclusiveMaximum":true}},"$ref":"http://x.test/a"}`,
	`{"$defs":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"}]}},"$ref":"#/$defs/a"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","$id":"http://x.test/ignored","definitions":{"a":{"type":"integer"}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"d":{"format":"date"}},"items":{"format":"ipv4"}}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","format":"date"}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","$ref":"#/$defs/a","$defs":{"a":{"minimum":2}},"maximum":4}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","dependentRequired":{"a":["b"]},"dependentSchemas":{"b":false}}`,
	`{"$schema":"http://json-schema.org/draft-06/schema#","propertyNames":{"pattern":"^a"},"const":{"a":1}}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","propertyNames":{"pattern":"^a"},"const":1,"contains":{"type":"string"}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","contentMediaType":"application/json","contentEncoding":"base64"}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","prefixItems":[{"type":"string"}]}`,
	`{"$schema":"https://json-schema.org/draft/2019-09/schema","$dynamicRef":"#/$defs/x","$defs":{"x":false}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","unevaluatedProperties":false}`,
	`{"type":"object","properties":{"a":{"type":"integer"}},"patternProperties":{"^a":{"minimum":1}},"additionalProperties":{"type":"string"}}`,
	`{"items":{"type":"array","items":{"type":"array","uniqueItems":true}}}`,
	`{"$id":"urn:example:root","$defs":{"a":{"type":"integer"}},"$ref":"urn:example:root#/$defs/a"}`,
	`{"$id":"urn:example:root","$defs":{"a":{"$id":"urn:example:a","type":"integer"}},"$ref":"urn:example:a"}`,
	`{"$id":"http://x.test/dir/root.json","$defs":{"a":{"$id":"../other.json","$anchor":"here","type":"string"}},"$ref":"http://x.test/other.json#here"}`,
	`{"$defs":{"a":{"$anchor":"x","type":"integer"}},"properties":{"p":{"$ref":"#x"}}}`,
	`{"$defs":{"a":{"$schema":"http://x.test/unknown"}}}`, `{"$defs":{"a":{"$schema":"http://x.test/unknown"}},"$ref":"#/$defs/a"}`,
	`{"properties":{"a":{"$schema":"http://x.test/unknown"}}}`, `{"$defs":{"a":{"$id":"http://x.test/a","$schema":"http://x.test/unknown"}}}`,
	`{"properties":{"a":{"$schema":5}}}`, `{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","$id":"http://x.test/a","items":[{"type":"integer"}]}}}`,
	`{"allOf":[{"$ref":"#/$defs/t"}],"$defs":{"t":{"anyOf":[{"type":"integer"},{"$ref":"#/$defs/t"}]}}}`,
}

func verdictsAgree(t *testing.T, label string, mine *Schema, lib *jsonschema.Schema, instances []string) {
	t.Helper()
	for _, inst := range instances {
		v, perr := decodeJSON([]byte(inst))
		if perr != nil {
			continue
		}
		got := mine.Validate(v)
		want := lib.Validate(v)
		if (got == nil) != (want == nil) {
			t.Errorf("%s\n  instance %s: engine %v, library %v", label, inst, got, want)
		}
		// The decoded-without-UseNumber form must agree too.
		var f any
		if json.Unmarshal([]byte(inst), &f) == nil {
			if (mine.Validate(f) == nil) != (lib.Validate(f) == nil) {
				t.Errorf("%s\n  instance %s (float64 numbers): verdicts differ", label, inst)
			}
		}
	}
}

func differential(t *testing.T, label string, raw []byte, instances []string) {
	t.Helper()
	mine, err := CompileBytes("diff.json", raw)
	lib, lerr := oracleCompile("diff.json", raw)
	if (err == nil) != (lerr == nil) {
		t.Errorf("%s\n  compile: engine %v, library %v", label, err, lerr)
		return
	}
	if err != nil {
		if _, ok := asCompileError(err); !ok {
			t.Errorf("%s: error %T is not a *CompileError", label, err)
		}
		return
	}
	verdictsAgree(t, label, mine, lib, instances)
}

func TestDifferentialTrickySchemas(t *testing.T) {
	for _, s := range trickySchemas {
		differential(t, s, []byte(s), instancePool)
	}
}

func TestDifferentialSeedsAndBundles(t *testing.T) {
	for _, s := range []string{verdictSchema, `{"type":"object","properties":{"n":{"type":"integer","maximum":3}}}`,
		`{"type":"object","required":["a"],"properties":{"b":{"type":"string"},"c~/d":{"enum":[1]}}}`,
		`{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `{"prefixItems":[{"type":"string"}]}`} {
		differential(t, s, []byte(s), instancePool)
	}
	// Every file of the bundle story, compiled from disk by both.
	dir := story(t, bundleStory)
	for name := range bundleStory {
		diffFile(t, dir, strings.TrimPrefix(name, "schemas/"), append(append([]string{}, instancePool...), bundleCorpus[name]...))
	}
}

func diffFile(t *testing.T, storyDir, rel string, instances []string) {
	t.Helper()
	label := filepath.Join(storyDir, "schemas", rel)
	mine, err := NewCompiler(storyDir).Compile("schemas/" + rel)
	lib, lerr := oracleCompileFile(storyDir, rel)
	if (err == nil) != (lerr == nil) {
		t.Errorf("%s\n  compile: engine %v, library %v", label, err, lerr)
		return
	}
	if err != nil {
		return
	}
	verdictsAgree(t, label, mine, lib, instances)
}

// TestDifferentialStorySchemas compiles every schema of the shared corpus
// and of examples/ with both.
func TestDifferentialStorySchemas(t *testing.T) {
	var files []string
	for _, pat := range []string{
		"../../examples/*/schemas/*.json", "../../examples/*/*/schemas/*.json",
		"/work/shared/corpus/*/schemas/*.json", "/work/shared/corpus/*/schemas/*/*.json",
		"testdata/corpus/*/schemas/*.json",
	} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 4 {
		t.Fatalf("found only %d story schemas", len(files))
	}
	for _, f := range files {
		dir := f
		for filepath.Base(dir) != "schemas" {
			dir = filepath.Dir(dir)
		}
		rel, _ := filepath.Rel(dir, f)
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		instances := append([]string{}, instancePool...)
		instances = append(instances, examplesOf(raw)...)
		diffFile(t, filepath.Dir(dir), filepath.ToSlash(rel), instances)
	}
}

// examplesOf derives instances from a schema's own enum/const/examples and
// property names, so a story schema meets both valid and invalid values.
func examplesOf(raw []byte) []string {
	var doc any
	if json.Unmarshal(raw, &doc) != nil {
		return nil
	}
	obj := map[string]any{}
	var walk func(any)
	walk = func(n any) {
		m, ok := n.(map[string]any)
		if !ok {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for k, p := range props {
				pm, _ := p.(map[string]any)
				if e, ok := pm["enum"].([]any); ok && len(e) > 0 {
					obj[k] = e[0]
				} else if ty, _ := pm["type"].(string); ty == "string" {
					obj[k] = "some text value"
				} else if ty == "number" || ty == "integer" {
					obj[k] = 1
				} else if ty == "boolean" {
					obj[k] = true
				} else if ty == "array" {
					obj[k] = []any{}
				} else if ty == "object" {
					obj[k] = map[string]any{}
				}
				walk(p)
			}
		}
	}
	walk(doc)
	var out []string
	full, _ := json.Marshal(obj)
	out = append(out, string(full))
	for k := range obj {
		partial := map[string]any{}
		for k2, v := range obj {
			if k2 != k {
				partial[k2] = v
			}
		}
		b, _ := json.Marshal(partial)
		out = append(out, string(b))
		bad := map[string]any{}
		for k2, v := range obj {
			bad[k2] = v
		}
		bad[k] = []any{"wrong"}
		b, _ = json.Marshal(bad)
		out = append(out, string(b))
	}
	return out
}

var hugeExponent = regexp.MustCompile(`[eE][+-]?0*[0-9]{4,}`)

// FuzzDifferential: for arbitrary schema and instance bytes, the engine
// and the library accept/refuse the schema alike and agree on the verdict.
func FuzzDifferential(f *testing.F) {
	for i, s := range trickySchemas {
		f.Add([]byte(s), []byte(instancePool[i%len(instancePool)]))
	}
	f.Add([]byte(verdictSchema), []byte(`{"verdict":"pass","intent":"accept","reason":"looks good","confidence":0.9}`))
	f.Fuzz(func(t *testing.T, schema, instance []byte) {
		if hugeExponent.Match(schema) || hugeExponent.Match(instance) {
			// The library expands 1e999999999 with big.Rat (minutes of
			// work); the engine does not (TestHugeExponents).
			return
		}
		mine, err := CompileBytes("fuzz.json", schema)
		lib, lerr := oracleCompile("fuzz.json", schema)
		if (err == nil) != (lerr == nil) {
			if err != nil && strings.Contains(err.Error(), "points inside a built-in metaschema") {
				return // documented: the engine embeds no metaschema documents
			}
			t.Fatalf("schema %s\n  compile: engine %v, library %v", schema, err, lerr)
		}
		if err != nil {
			return
		}
		v, perr := decodeJSON(instance)
		if perr != nil {
			return
		}
		if got, want := mine.Validate(v), lib.Validate(v); (got == nil) != (want == nil) {
			t.Fatalf("schema %s\n  instance %s: engine %v, library %v", schema, instance, got, want)
		}
	})
}
