package cmd

import (
	"crypto/sha256"
	"fmt"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/flowtest"
)

// checkMergeReport refuses a shard report kitsoki test --json could not
// have written: a null result or turn, counts that are not its results'
// tally or a flow marked passed over a failed turn. Shard reports come
// from other CI jobs: merge must not count passes that never ran.
func checkMergeReport(path string, r *flowtest.Report) error {
	fix := "give the reports kitsoki test --shard i/n --json wrote, each once, unedited"
	var passed, failed int
	for i, f := range r.Results {
		if f == nil {
			return fmt.Errorf("%s: Results[%d] is null; %s", path, i, fix)
		}
		name := termsafe.Line(f.File)
		for k, tr := range f.Turns {
			switch {
			case tr == nil:
				return fmt.Errorf("%s: Results[%d] (%s) Turns[%d] is null; %s", path, i, name, k, fix)
			case f.Passed && (!tr.Passed || len(tr.Failures) > 0):
				return fmt.Errorf("%s: Results[%d] (%s) is marked passed but its turn %d failed; %s", path, i, name, tr.TurnIndex, fix)
			}
		}
		switch {
		case f.Skipped:
		case f.Passed:
			passed++
		default:
			failed++
		}
	}
	if passed != r.Passed || failed != r.Failed {
		return fmt.Errorf("%s: its counts (%d passed, %d failed) are not its results' (%d passed, %d failed); %s", path, r.Passed, r.Failed, passed, failed, fix)
	}
	return nil
}

// sameReport refuses a report given twice: the same bytes as one given
// before (by another name or a copy) would count its fixtures twice.
// seen maps a report's SHA-256 to the first file that held it. Shards
// split fixtures by document and a report names only the file, so a
// shard whose results were copied into another with other bytes is not
// caught here; its counts must still be its results'.
func sameReport(path string, data []byte, seen map[[32]byte]string) error {
	sum := sha256.Sum256(data)
	if prev, ok := seen[sum]; ok {
		return fmt.Errorf("%s: the same report as %s: a shard was given twice; give each shard's report once", path, prev)
	}
	seen[sum] = path
	return nil
}
