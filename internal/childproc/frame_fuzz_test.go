package childproc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzFrameReader holds the line reader against bytes.Split: every
// complete line up to the cap comes out whole and in order; a line over
// the cap stops the reader with errFrameTooLarge and at most cap bytes; an
// unterminated end comes back as the partial line with io.EOF. The reader's
// buffer is the smallest bufio allows, so long lines cross many reads.
func FuzzFrameReader(f *testing.F) {
	for _, s := range []struct {
		in  string
		max uint8
	}{
		{"a\nbb\n", 8},
		{"", 8},
		{"\n\n", 1},
		{`{"jsonrpc":"2.0","id":`, 64},
		{"0123456789abcdefXYZ\nshort\n", 32},
		{"0123456789abcdefXYZ\n", 16},
		{"exactly16bytes!!\n", 16},
		{"x\r\n", 2},
	} {
		f.Add([]byte(s.in), s.max)
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint8) {
		limit := int(max)%64 + 1
		fr := frameReader{br: bufio.NewReaderSize(bytes.NewReader(in), 16), max: limit}
		want := bytes.Split(in, []byte{'\n'})
		for i, w := range want {
			last := i == len(want)-1
			got, err := fr.next()
			switch {
			case len(w) > limit:
				if !errors.Is(err, errFrameTooLarge) || !bytes.Equal(got, w[:limit]) {
					t.Fatalf("line %d (%d bytes, cap %d): got %q, %v", i, len(w), limit, got, err)
				}
				return
			case last:
				if err != io.EOF || !bytes.Equal(got, w) {
					t.Fatalf("end: got %q, %v; want %q, EOF", got, err, w)
				}
				return
			case err != nil || !bytes.Equal(got, w) || got == nil:
				t.Fatalf("line %d: got %q, %v; want %q", i, got, err, w)
			}
		}
	})
}
