package host

import (
	"fmt"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/repeatedkey"
)

// TestHTTPCassetteRepeatedKeyRefused: an http cassette with a key given twice in one
// mapping (written twice at any depth, in an unused anchor, two `<<:`; or,
// where the cassette is read, through two mappings of a merged list or an
// alias key) does not load, naming the place upstream's parser or decoder
// named and the earlier key, as testdata/repeated-key/upstream.txt recorded;
// a cassette it read loads here too.
func TestHTTPCassetteRepeatedKeyRefused(t *testing.T) {
	repeatedkey.Check(t, repeatedkey.Reader{
		Dir: filepath.Join("testdata", "repeated-key"), MinLines: 10, What: "http cassette",
		Parse: func(path string, data []byte) error {
			_, err := ParseHTTPCassette(path, data, nil)
			return err
		},
		Place: func(path, line, col string) string { return fmt.Sprintf("%s:%s:%s: ", path, line, col) },
	})
}
