package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A huge file in the story directory costs the snapshot time, not memory:
// it is stat'ed, stream-hashed and left out, never read whole.
func TestSnapshotOfAHugeFileUsesNoMemory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte("app: {id: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	const size = 256 << 20 // sparse: no disk used
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	snap, err := storySnapshot("x", dir, "app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Fatalf("snapshot of a %d-byte file allocated %d bytes", size, alloc)
	}
	if snap["files"] != nil || snap["files_omitted"] == nil || len(snap["hash"].(string)) != 64 {
		t.Fatalf("payload: %v", snap)
	}
}
