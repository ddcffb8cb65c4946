package schema

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

var benchSubmission = []byte(`{"verdict":"pass","intent":"accept","reason":"the change fixes the failing test","confidence":0.92}`)

// BenchmarkValidate is the hot path of every agent call: validating a
// submission (raw bytes, as a transport returns it) against a compiled
// typical verdict schema.
func BenchmarkValidate(b *testing.B) {
	s, err := CompileBytes("verdict.json", []byte(verdictSchema))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if ve := s.ValidateJSON(benchSubmission); ve != nil {
			b.Fatal(ve)
		}
	}
}

// BenchmarkValidateDecoded validates an already-decoded value.
func BenchmarkValidateDecoded(b *testing.B) {
	s, err := CompileBytes("verdict.json", []byte(verdictSchema))
	if err != nil {
		b.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(benchSubmission, &v); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if ve := s.Validate(v); ve != nil {
			b.Fatal(ve)
		}
	}
}

// BenchmarkValidateInvalid measures the failure path (error tree flattening).
func BenchmarkValidateInvalid(b *testing.B) {
	s, err := CompileBytes("verdict.json", []byte(verdictSchema))
	if err != nil {
		b.Fatal(err)
	}
	bad := []byte(`{"verdict":"maybe","intent":"accept","reason":"ok","confidence":95}`)
	b.ReportAllocs()
	for b.Loop() {
		if ve := s.ValidateJSON(bad); ve == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkCompileCached is Compile on an already-compiled path.
func BenchmarkCompileCached(b *testing.B) {
	dir := b.TempDir()
	c := NewCompiler(dir)
	mustWrite(b, dir, "schemas/verdict.json", verdictSchema)
	if _, err := c.Compile("schemas/verdict.json"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Compile("schemas/verdict.json"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrammarSubset checks the verdict schema.
func BenchmarkGrammarSubset(b *testing.B) {
	raw := []byte(verdictSchema)
	b.ReportAllocs()
	for b.Loop() {
		if vs := CheckGrammarSubset(raw); vs != nil {
			b.Fatal(vs)
		}
	}
}

// BenchmarkCompileBundled compiles (uncached) a schema whose refs span
// four files, bundling included: the per-schema load-time cost.
func BenchmarkCompileBundled(b *testing.B) { benchBundle(b, bundleStory, "schemas/verdict.json") }

// benchBundle compiles path among files, uncached, each time bundling.
func benchBundle(b *testing.B, files map[string]string, path string) {
	dir := b.TempDir()
	for name, body := range files {
		mustWrite(b, dir, name, body)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := NewCompiler(dir).Compile(path)
		if err != nil || len(s.Bundled) == len(s.Raw) {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileSelfContained is the same for a file without external
// refs (no bundling work: Bundled is Raw).
func BenchmarkCompileSelfContained(b *testing.B) {
	dir := b.TempDir()
	mustWrite(b, dir, "schemas/verdict.json", verdictSchema)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewCompiler(dir).Compile("schemas/verdict.json"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileBytes compiles the verdict schema held in memory: the
// engine's compile cost without the filesystem.
func BenchmarkCompileBytes(b *testing.B) {
	raw := []byte(verdictSchema)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompileBytes("verdict.json", raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateRefs validates a submission against a schema whose refs
// span four files (anchors, a nested $id, recursion, unevaluatedProperties).
func BenchmarkValidateRefs(b *testing.B) {
	dir := b.TempDir()
	for name, body := range bundleStory {
		mustWrite(b, dir, name, body)
	}
	s, err := NewCompiler(dir).Compile("schemas/verdict.json")
	if err != nil {
		b.Fatal(err)
	}
	doc := []byte(`{"action":"wait","target":{"id":1,"label":"ok"},"items":[{"kind":"close","weight":9.5}],"note":"hi",
		"tree":{"value":1,"children":[{"value":2,"children":[{"value":3}]}]},"tagged":{"tag":"abc"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if ve := s.ValidateJSON(doc); ve != nil {
			b.Fatal(ve)
		}
	}
}

// BenchmarkCompileCorpusStories does what a story check does for each
// story of testdata/corpus: a fresh Compiler, every schema read (for the
// clean-source cache) and compiled, through the Compiler (each call on its
// own) or through one Session per story.
func BenchmarkCompileCorpusStories(b *testing.B) {
	dirs, _ := filepath.Glob("testdata/corpus/*")
	var stories [][]string
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "schemas", "*.json"))
		if len(files) == 0 {
			continue
		}
		var rels []string
		for _, f := range files {
			rels = append(rels, filepath.Join("schemas", filepath.Base(f)))
		}
		stories = append(stories, append([]string{d}, rels...))
	}
	if len(stories) == 0 {
		b.Skip("no corpus schemas")
	}
	b.Run("compiler", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, st := range stories {
				c := NewCompiler(st[0])
				for _, p := range st[1:] {
					if _, err := readFile(c, nil, p); err != nil {
						b.Fatal(err)
					}
					if _, err := c.Compile(p); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
	b.Run("session", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, st := range stories {
				s := NewCompiler(st[0]).Session()
				for _, p := range st[1:] {
					if _, err := readFile(s.c, s.files, p); err != nil {
						b.Fatal(err)
					}
					if _, err := s.Compile(p); err != nil {
						b.Fatal(err)
					}
				}
				s.Close()
			}
		}
	})
}

// BenchmarkCompileCompound compiles (uncached) a schema whose
// $dynamicRef spans two files: the compound bundle's load-time cost.
func BenchmarkCompileCompound(b *testing.B) { benchBundle(b, pathStory, "schemas/d2020/strict.json") }
