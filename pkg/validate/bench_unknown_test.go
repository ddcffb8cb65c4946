package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// BenchmarkUnknownKeys validates a story whose top level holds 100,000
// keys no story has (2.1 MB): one unknown-key finding each, each with a
// did-you-mean search over the known keys. ns/MB is the cost per
// megabyte of such a file.
func BenchmarkUnknownKeys(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "s")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("app:\n  id: s\n  start: a\nstates:\n  a:\n    say: hi\n")
	for i := range 100_000 {
		fmt.Fprintf(&sb, "zunknownkey%06d: 1\n", i)
	}
	file := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Run([]string{file}, Options{Story: story.Options{AllowUnsetEnv: true}})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(sb.Len())/1e6), "ns/MB")
}
