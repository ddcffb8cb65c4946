package filelock

import (
	"os"
	"path/filepath"
	"testing"
)

// A second open of a locked file is refused as held, and gets the lock
// once the first lets go.
func TestTryHeldThenFree(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	a, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if held, err := Try(a); err != nil || held {
		t.Fatalf("first lock: held %v err %v", held, err)
	}
	if held, err := Try(b); err == nil || !held {
		t.Fatalf("second lock while held: held %v err %v", held, err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if held, err := Try(b); err != nil || held {
		t.Fatalf("second lock after release: held %v err %v", held, err)
	}
}
