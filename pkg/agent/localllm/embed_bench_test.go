package localllm

import (
	"math/rand"
	"testing"
)

func BenchmarkTruncateNomic(b *testing.B) {
	v := make([]float32, 768)
	for i := range v {
		v[i] = rand.Float32()
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		truncateVector(v, 256, true)
	}
}
