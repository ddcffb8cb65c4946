package yamlfast

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/storytest"
)

// benchFiles returns the YAML files of the shared corpus (or, without
// it, of the repository), skipping the benchmark when there are none.
func benchFiles(b *testing.B) [][]byte {
	var out [][]byte
	for _, root := range []string{storytest.CorpusDir(), "../../examples"} {
		if root == "" {
			continue
		}
		for _, path := range yamlFiles(b, root) {
			if data, err := os.ReadFile(path); err == nil {
				out = append(out, data)
			}
		}
		if len(out) > 0 {
			break
		}
	}
	if len(out) == 0 {
		b.Skip("no corpus files")
	}
	return out
}

func benchSize(files [][]byte) int64 {
	n := 0
	for _, f := range files {
		n += len(f)
	}
	return int64(n)
}

// BenchmarkParse parses the corpus with ParseWithin (yaml.v3 for what it
// declines, as the callers do).
func BenchmarkParse(b *testing.B) {
	files := benchFiles(b)
	b.SetBytes(benchSize(files))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, ok := parseDoc(f); !ok {
				if _, err := decodeV3(f); err != nil && len(f) > 0 {
					_ = err
				}
			}
		}
	}
}

// BenchmarkYAMLv3 decodes the corpus with yaml.v3's Decoder, as
// pkg/story did.
func BenchmarkYAMLv3(b *testing.B) {
	files := benchFiles(b)
	b.SetBytes(benchSize(files))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			var doc yaml.Node
			_ = yaml.NewDecoder(bytes.NewReader(f)).Decode(&doc)
		}
	}
}

// BenchmarkCountPastTheLimit counts a one-line list of 3 million items
// against a 2-million-node limit, as Decode does for a large file only
// yaml.v3 parses.
func BenchmarkCountPastTheLimit(b *testing.B) {
	benchListAgainstTheLimit(b, 3_000_000, "not over", func(data []byte) bool {
		over, _ := Count(data, 2_000_000)
		return over != nil
	})
}

// BenchmarkParseLimitPastTheLimit parses, to build it, a one-line list of
// 3 million items against a 2-million-node limit: B/op is what the
// refusal costs.
func BenchmarkParseLimitPastTheLimit(b *testing.B) {
	benchListAgainstTheLimit(b, 3_000_000, "not over", func(data []byte) bool {
		_, _, over := parseLimit(data, 2_000_000)
		return over != nil
	})
}

// BenchmarkParseLimitJustWithin parses a one-line list of 1.9 million
// items within a 2-million-node limit: a file this large is counted
// before it is built.
func BenchmarkParseLimitJustWithin(b *testing.B) {
	benchListAgainstTheLimit(b, 1_900_000, "declined", func(data []byte) bool {
		_, ok, _ := parseLimit(data, 2_000_000)
		return ok
	})
}

// benchListAgainstTheLimit runs read on a one-line list of items items,
// failing with fail when it says false.
func benchListAgainstTheLimit(b *testing.B, items int, fail string, read func(data []byte) bool) {
	data := []byte("a: [" + strings.Repeat("1,", items) + "1]\n")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if !read(data) {
			b.Fatal(fail)
		}
	}
}
