package flowtest

import (
	"crypto/sha256"
	"fmt"

	"kitsoki/internal/termsafe"
)

// minMergeElementBytes is the fewest bytes a result, turn, event or
// failure takes on average in a report kitsoki test --json wrote, even
// compacted (a turn or event names every field; a failure is a sentence).
const minMergeElementBytes = 24

// CheckShardReport refuses a shard report kitsoki test --json could not
// have written (size bytes long), so merge counts no pass that never ran
// and writes nothing many times the size it read.
func CheckShardReport(path string, r *Report, size int) error {
	fix := "give the reports kitsoki test --shard i/n --json wrote, each once, unedited"
	elems := len(r.Results)
	for _, f := range r.Results {
		if f != nil {
			elems += len(f.Turns)
			for _, tr := range f.Turns {
				if tr != nil {
					elems += len(tr.Events) + len(tr.Failures)
				}
			}
		}
	}
	if elems > 0 && size/elems < minMergeElementBytes {
		return fmt.Errorf("%s: %d results, turns, events and failures in %d bytes, fewer than %d bytes each: kitsoki test --json writes each with every field, so this is not its report; %s", path, elems, size, minMergeElementBytes, fix)
	}
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
	}
	if passed, failed := tallyFlows(r.Results); passed != r.Passed || failed != r.Failed {
		return fmt.Errorf("%s: its counts (%d passed, %d failed) are not its results' (%d passed, %d failed); %s", path, r.Passed, r.Failed, passed, failed, fix)
	}
	return nil
}

// SameShardReport refuses a report whose bytes were given before; seen
// maps a report's SHA-256 to the first file that held it.
func SameShardReport(path string, data []byte, seen map[[32]byte]string) error {
	sum := sha256.Sum256(data)
	if prev, ok := seen[sum]; ok {
		return fmt.Errorf("%s: the same report as %s: a shard was given twice; give each shard's report once", path, prev)
	}
	seen[sum] = path
	return nil
}
