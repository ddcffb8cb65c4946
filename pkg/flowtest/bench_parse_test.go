package flowtest

import (
	"os"
	"testing"
)

// BenchmarkParseCorpusFixtures reads every corpus fixture file (YAML
// decode and fixture reader): what one kitsoki validate pays per fixture
// document. The reader's own share shows in
// allocs/op against the decode's.
func BenchmarkParseCorpusFixtures(b *testing.B) {
	var datas [][]byte
	var names []string
	for _, f := range corpusFiles(b) {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			b.Fatal(err)
		}
		datas, names = append(datas, data), append(names, f.Path)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, data := range datas {
			parse(names[i], data)
		}
	}
	b.ReportMetric(float64(len(datas)), "files")
}
