package schema

import (
	"encoding/json"
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
func BenchmarkCompileBundled(b *testing.B) {
	dir := b.TempDir()
	for name, body := range bundleStory {
		mustWrite(b, dir, name, body)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := NewCompiler(dir).Compile("schemas/verdict.json")
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
