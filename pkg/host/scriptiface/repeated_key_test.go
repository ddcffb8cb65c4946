package scriptiface

import (
	"fmt"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/repeatedkey"
)

// TestSidecarRepeatedKeyRefused: a starlark sidecar with a key given twice in one
// mapping (written twice at any depth, in an unused anchor, two `<<:`; or,
// where the sidecar is read, through two mappings of a merged list or an
// alias key) does not load, naming the place upstream's parser or decoder
// named and the earlier key, as testdata/repeated-key/upstream.txt recorded;
// a sidecar it read loads here too.
func TestSidecarRepeatedKeyRefused(t *testing.T) {
	repeatedkey.Check(t, repeatedkey.Reader{
		Dir: filepath.Join("testdata", "repeated-key"), MinLines: 13, What: "sidecar",
		Parse: func(path string, data []byte) error {
			_, err := Parse(path, data)
			return err
		},
		Place: func(path, line, col string) string { return fmt.Sprintf("%s:%s:%s: ", path, line, col) },
	})
}
