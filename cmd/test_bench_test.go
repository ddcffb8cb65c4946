package cmd

import (
	"bytes"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// BenchmarkTestCorpus is `kitsoki test CORPUS/...` in process, from
// finding the fixtures to the intents' summary: every corpus story with
// flows (each loaded and compiled once) and cloak's intents. Process
// start-up is not in it (see BenchmarkFetchWarmStart for a whole process).
func BenchmarkTestCorpus(b *testing.B) {
	corpus := storytest.Corpus(b, "")
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := Run([]string{"test", corpus + "/..."}, &out, &errb); code != 0 {
			b.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
		}
	}
}
