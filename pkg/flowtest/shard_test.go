package flowtest

import (
	"fmt"
	"slices"
	"testing"
)

// Every fixture lands in exactly one of n slices, and its slice is the
// same whatever other fixtures are sharded with it.
func TestShardSplitsEachFixtureOnce(t *testing.T) {
	var files []*File
	for f := range 5 {
		file := &File{Path: fmt.Sprintf("flows/f%d.yaml", f), Story: "app.yaml"}
		for d := 1; d <= 4; d++ {
			file.Fixtures = append(file.Fixtures, &Fixture{File: "./" + file.Path, Doc: d, Docs: 4})
		}
		files = append(files, file)
	}
	const n = 3
	seen := map[string]int{}
	for i := 1; i <= n; i++ {
		for _, f := range Shard(files, i, n) {
			if len(f.Fixtures) == 0 {
				t.Errorf("slice %d keeps %s with no fixture", i, f.Path)
			}
			for _, fx := range f.Fixtures {
				seen[fx.Name()]++
				alone := Shard([]*File{{Path: f.Path, Fixtures: []*Fixture{fx}}}, i, n)
				if len(alone) != 1 {
					t.Errorf("%s is in slice %d with the others but not alone", fx.Name(), i)
				}
			}
		}
	}
	if len(seen) != 20 {
		t.Fatalf("%d fixtures sharded, want 20: %v", len(seen), seen)
	}
	for name, k := range seen {
		if k != 1 {
			t.Errorf("%s is in %d slices, want 1", name, k)
		}
	}
	if got := Shard(files, 1, 1); !slices.Equal(got[0].Fixtures, files[0].Fixtures) || len(got) != len(files) {
		t.Errorf("slice 1/1 is not every fixture")
	}
}
