package childproc

import (
	"bufio"
	"errors"
	"fmt"

	"kitsoki/internal/human"
)

// MaxFrame bounds one line a child writes (an answer, with everything it
// carries). A longer line fails the call; it is never read whole.
const MaxFrame = 64 << 20

// errFrameTooLarge is the reader's error for a line over its limit.
var errFrameTooLarge = errors.New("frame too large")

// frameReader splits a child's stdout into '\n'-terminated lines of at
// most max bytes (the '\n' not counted).
type frameReader struct {
	br  *bufio.Reader
	max int
}

// next returns the next line without its '\n'. On error it returns the
// bytes of the unterminated line read so far (at most max of them):
// io.EOF after a partial line, errFrameTooLarge for a line over max.
func (f *frameReader) next() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := f.br.ReadSlice('\n')
		n := len(chunk)
		if err == nil {
			n-- // the '\n'
		}
		if len(buf)+n > f.max {
			return append(buf, chunk[:f.max-len(buf)]...), errFrameTooLarge
		}
		buf = append(buf, chunk[:n]...)
		switch err {
		case nil:
			if buf == nil {
				buf = []byte{}
			}
			return buf, nil
		case bufio.ErrBufferFull:
			continue
		default:
			return buf, err
		}
	}
}

// tooLargeText explains errFrameTooLarge to the child's author.
func tooLargeText(max int) string {
	return fmt.Sprintf("wrote an answer line longer than kitsoki's %s frame cap (one message per line, everything it carries included); put bulky output in a file and name it in the answer", human.Size(int64(max)))
}
