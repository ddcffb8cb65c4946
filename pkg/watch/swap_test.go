package watch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// swapOutside replaces dir with a symbolic link to target.
func swapOutside(t *testing.T, dir, target string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, dir); err != nil {
		t.Fatal(err)
	}
}

// outsideTargets makes a directory, a file and a missing path outside
// the watched tree, and the function writing a new file in the directory.
func outsideTargets(t *testing.T) (targets []string, touch func(name string)) {
	base := t.TempDir()
	dir, file := filepath.Join(base, "outside"), filepath.Join(base, "outside.txt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{dir, file, filepath.Join(base, "absent")}, func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("s"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// untilMarker gathers src's events until marker's, failing on a hang.
func untilMarker(t *testing.T, src Source, marker string) []string {
	t.Helper()
	var seen []string
	deadline := time.After(hang)
	for {
		select {
		case p, ok := <-src.Events():
			if !ok {
				t.Fatal("the watch closed")
			}
			if seen = append(seen, p); p == marker {
				return seen
			}
		case <-deadline:
			t.Fatalf("no event for %s; saw %v", marker, seen)
		}
	}
}

// TestWatchRefusesADirectorySwappedOut: test --watch walked the tree by
// path, then added each directory's watch by its path, which fsnotify
// follows: a directory swapped for a symbolic link leading out in between
// had the outside directory watched and the names of files changed there
// printed, and a link to nothing failed the watch. The walk lists through
// a root, a watch whose path is no longer the directory walked is removed
// before any change is told, and changes are told only under directories
// confirmed through the root; the three targets read the same.
func TestWatchRefusesADirectorySwappedOut(t *testing.T) {
	targets, touch := outsideTargets(t)
	for i, target := range targets {
		root := t.TempDir()
		a := filepath.Join(root, "a")
		if err := os.Mkdir(a, 0o755); err != nil {
			t.Fatal(err)
		}
		src, err := open([]string{root}, RealClock{}, time.Second, maxDirs, hooks{beforeAdd: func(p string) {
			if p == a {
				swapOutside(t, a, target)
			}
		}})
		if err != nil {
			t.Fatalf("a swapped for a link to %s: %v", target, err)
		}
		secret := "SECRET" + string(rune('0'+i))
		touch(secret)
		marker := filepath.Join(root, "marker")
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		seen := untilMarker(t, src, marker)
		if slices.ContainsFunc(seen, func(p string) bool { return strings.Contains(p, "SECRET") }) {
			t.Errorf("a swapped for a link to %s before its watch: events %v name a file outside", target, seen)
		}
		if slices.Contains(src.(*notifier).w.WatchList(), a) {
			t.Errorf("a swapped for a link to %s is watched", target)
		}
		src.Close()
	}
}

// TestPollerRefusesADirectorySwappedOut: the poller listed each walked
// directory by its path (os.ReadDir), so one swapped for a link leading
// out after the walk had the outside files stamped, and told as removed
// on the next poll. It lists through the root now, in one pass.
func TestPollerRefusesADirectorySwappedOut(t *testing.T) {
	targets, touch := outsideTargets(t)
	touch("SECRET")
	for _, target := range targets {
		root := t.TempDir()
		a := filepath.Join(root, "a")
		if err := os.Mkdir(a, 0o755); err != nil {
			t.Fatal(err)
		}
		swapped := false
		clock := newFakeClock()
		p, err := newPoller([]string{root}, clock, time.Second, hooks{listing: func(p string) {
			if p == a && !swapped {
				swapped = true
				swapOutside(t, a, target)
			}
		}})
		if err != nil {
			t.Fatalf("a swapped for a link to %s: %v", target, err)
		}
		if !swapped {
			t.Fatal("the walk never reached a: nothing was swapped")
		}
		clock.waitTimer(t)
		marker := filepath.Join(root, "marker")
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		clock.fire(0)
		clock.waitTimer(t) // the scan's events are all sent before the next timer
		var seen []string
		for drained := false; !drained; {
			select {
			case e := <-p.Events():
				seen = append(seen, e)
			default:
				drained = true
			}
		}
		if !slices.Contains(seen, marker) {
			t.Fatalf("no event for the marker: %v", seen)
		}
		if slices.ContainsFunc(seen, func(p string) bool { return strings.Contains(p, "SECRET") }) {
			t.Errorf("a swapped for a link to %s while walked: events %v name a file outside", target, seen)
		}
		p.Close()
	}
}
