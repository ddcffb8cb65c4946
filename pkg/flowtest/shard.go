package flowtest

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
)

// Shard keeps the fixtures of slice i of n (1 <= i <= n) by a hash of
// each fixture's path and document, so a fixture's slice does not depend
// on the others; a file left with no fixture is dropped.
func Shard(files []*File, i, n int) []*File {
	var out []*File
	for _, f := range files {
		var keep []*Fixture
		for _, fx := range f.Fixtures {
			h := fnv.New32a()
			_, _ = h.Write([]byte(filepath.ToSlash(filepath.Clean(fx.File)) + "#" + fmt.Sprint(fx.Doc)))
			if int(h.Sum32()%uint32(n)) == i-1 {
				keep = append(keep, fx)
			}
		}
		if len(keep) > 0 {
			cp := *f
			cp.Fixtures = keep
			out = append(out, &cp)
		}
	}
	return out
}
