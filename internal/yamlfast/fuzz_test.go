package yamlfast

import (
	"os"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// FuzzParseMatchesYAMLv3 checks the contract on any input: Parse never
// panics, and whenever it accepts, its tree is yaml.v3's (comments
// aside). Seeds: the tricky table and the corpus stories.
func FuzzParseMatchesYAMLv3(f *testing.F) {
	for _, tc := range trickyCases {
		f.Add([]byte(tc.in))
	}
	// The corpus stories (the repository holds copies of them; without
	// the shared corpus, its examples).
	for _, root := range []string{storytest.CorpusDir(), "../../examples"} {
		if root == "" {
			continue
		}
		for _, path := range yamlFiles(f, root) {
			if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
		break
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if _, _, problem := check(in); problem != "" {
			t.Fatalf("%s\ninput: %q", problem, in)
		}
		// Parse's own entry point agrees with the internal one.
		if _, ok := Parse(in); ok != (len(in) > 0 && func() bool { _, why, _ := parse(string(in), false, 0); return why == "" }()) {
			t.Fatalf("Parse and parse disagree on %q", in)
		}
	})
}
