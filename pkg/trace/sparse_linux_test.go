package trace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A torn trace (no newline at its end) is reported with the number of its
// last line, which takes counting its newlines: a 1 TiB sparse file, which
// costs its maker nothing, is counted from the data it holds instead of
// read whole (before: every byte of the terabyte, hours of one core).
func TestVerifySparseTornTraceReadsOnlyItsData(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sparse.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	head := `{"kind":"session.header","schema_version":1}` + "\n" + "{\"turn\":0}\n{"
	if _, err := f.WriteString(head); err != nil {
		t.Fatal(err)
	}
	const size = 1 << 40
	if err := f.Truncate(size); err != nil {
		t.Skipf("no 1 TiB sparse file here: %v", err)
	}
	if _, err := f.WriteAt([]byte("\n\n\nx"), size/2); err != nil { // data in the middle of the holes
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("x"), size-1); err != nil {
		t.Fatal(err)
	}
	if hole, err := f.Seek(0, seekHole); err != nil || hole >= size/2 {
		f.Close()
		t.Skipf("this file system does not report holes (SEEK_HOLE at 0: %d, %v)", hole, err)
	}
	f.Close()
	_, err = VerifyFile(p)
	ce, ok := errors.AsType[*CorruptError](err)
	if !ok || ce.Rule != RuleTrailingNewline || ce.Line != 6 {
		t.Fatalf("VerifyFile = %v, want the trailing-newline rule at line 6", err)
	}
}
