package flowtest

import (
	"fmt"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/repeatedkey"
)

// TestRecordingRepeatedKeyRefused: a recording with a key given twice in one
// mapping (written twice at any depth, in an unused anchor, two `<<:`; or,
// where the cassette is read, through two mappings of a merged list or an
// alias key) does not load, naming the place upstream's parser or decoder
// named and the earlier key, as testdata/repeated-key-recording/upstream.txt recorded;
// a recording it read loads here too.
func TestRecordingRepeatedKeyRefused(t *testing.T) {
	repeatedkey.Check(t, repeatedkey.Reader{
		Dir: filepath.Join("testdata", "repeated-key-recording"), MinLines: 19, What: "recording",
		Parse: func(path string, data []byte) error {
			_, err := parseRecording(path, data)
			return err
		},
		Place: func(path, line, col string) string {
			return fmt.Sprintf("recording %q: line %s, column %s: ", path, line, col)
		},
	})
}
