package yamlfast

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// corpusRoots are the trees whose YAML the differential test parses: the
// repository, the shared upstream corpus and the reference.
var corpusRoots = []string{"../..", storytest.CorpusDir(), storytest.SharedDir("reference")}

// yamlFiles lists the .yaml and .yml files under root.
func yamlFiles(t testing.TB, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries (a broken link in testdata) are skipped
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fixturePieces cuts a file on "\n---" as pkg/flowtest does, trimming
// each piece.
func fixturePieces(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "\n---")
		piece := s
		if i >= 0 {
			piece = s[:i]
		}
		if t := strings.TrimSpace(piece); t != "" {
			out = append(out, t)
		}
		if i < 0 {
			return out
		}
		s = s[i+len("\n---"):]
	}
}

// TestCorpusMatchesYAMLv3 is the differential test: every YAML file of
// the repository, the corpus and the reference (and every "---" piece of
// each, as fixtures are decoded) parses to yaml.v3's tree whenever ParseWithin
// accepts it (yaml.NewDecoder's, which yamlnode.Decode falls back to;
// the smaller tests compare with yaml.Unmarshal's too). It reports how many
// took the fast path.
// YAMLFAST_ROOTS (a list like PATH) adds trees to parse.
func TestCorpusMatchesYAMLv3(t *testing.T) {
	t.Parallel() // reads files and parses: nothing of the process
	reasons := map[string]int{}
	roots := corpusRoots
	if extra := os.Getenv("YAMLFAST_ROOTS"); extra != "" {
		roots = append(slices.Clone(roots), filepath.SplitList(extra)...)
	}
	type verdict struct {
		ok       bool
		why      string
		problem  string
		pieces   int
		fastPcs  int
		pieceWhy []string
	}
	seen := map[string]*verdict{} // by content: the repository holds copies of the corpus
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: skipped (%v)", root, err)
			continue
		}
		files, fast, pieces, fastPieces := 0, 0, 0, 0
		for _, path := range yamlFiles(t, root) {
			data, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			files++
			v := seen[string(data)]
			if v == nil {
				v = &verdict{}
				v.ok, v.why, v.problem = checkWith(data, false)
				for _, pc := range fixturePieces(string(data)) {
					v.pieces++
					ok, why, problem := checkWith([]byte(pc), false)
					if problem != "" && v.problem == "" {
						v.problem = "piece: " + problem
					}
					if ok {
						v.fastPcs++
					} else {
						v.pieceWhy = append(v.pieceWhy, why)
					}
				}
				seen[string(data)] = v
			}
			if v.problem != "" {
				t.Errorf("%s: %s", path, v.problem)
			}
			if v.ok {
				fast++
			} else {
				reasons[v.why]++
				t.Logf("declined %s: %s", path, v.why)
			}
			pieces += v.pieces
			fastPieces += v.fastPcs
			for _, why := range v.pieceWhy {
				reasons["piece: "+why]++
			}
		}
		t.Logf("%s: %d/%d files took the fast path (%.1f%%), %d/%d pieces", root, fast, files, pct(fast, files), fastPieces, pieces)
		if files == 0 {
			t.Errorf("%s: no YAML files found", root)
		}
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return reasons[b] - reasons[a] })
	for _, k := range keys {
		t.Logf("declined %4d× %s", reasons[k], k)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
