package childproc

import (
	"bufio"
	"errors"
	"fmt"

	"kitsoki/internal/human"
	"kitsoki/internal/jsoncost"
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
//
// A line longer than the reader's buffer is kept in pieces as it arrives
// and joined once into a slice of its exact size: growing one slice by
// append keeps two copies live while it grows, and leaves the garbage of
// every step before.
func (f *frameReader) next() ([]byte, error) {
	var pieces [][]byte // full pieces of a long line, in order
	var piece []byte    // the piece being filled
	size := 0           // the bytes in pieces and piece
	for {
		chunk, err := f.br.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1] // the '\n'
		}
		if size+len(chunk) > f.max {
			chunk, err = chunk[:f.max-size], errFrameTooLarge
		}
		if err == bufio.ErrBufferFull {
			size += len(chunk)
			for len(chunk) > 0 {
				if len(piece) == cap(piece) {
					if piece != nil {
						pieces = append(pieces, piece)
					}
					piece = make([]byte, 0, min(max(2*cap(piece), len(chunk)), maxPiece))
				}
				n := copy(piece[len(piece):cap(piece)], chunk)
				piece, chunk = piece[:len(piece)+n], chunk[n:]
			}
			continue
		}
		if size+len(chunk) == 0 && err != nil {
			return nil, err
		}
		line := make([]byte, 0, size+len(chunk))
		for _, p := range pieces {
			line = append(line, p...)
		}
		return append(append(line, piece...), chunk...), err
	}
}

// maxPiece bounds one piece of a long line: the pieces' room left unused
// is at most this.
const maxPiece = 4 << 20

// tooLargeText explains errFrameTooLarge to the child's author.
func tooLargeText(max int) string {
	return fmt.Sprintf("wrote an answer line longer than kitsoki's %s frame cap (one message per line, everything it carries included); put bulky output in a file and name it in the answer", human.Size(int64(max)))
}

// errTooCostly is the cause of an answer line refused by tooCostly.
var errTooCostly = errors.New("answer line too costly to decode")

// tooCostly says why an answer line is refused before any decoder reads
// it when, decoded as JSON, it would take more than jsoncost.Over's limit (with
// floor for jsoncost.Floor, 0: that floor): a line of millions of empty
// arrays, objects or numbers decodes to many times its bytes
// (TestCostlyAnswerIsRefused). "" for any other line, one that is not
// JSON included: the caller's decoder words that.
func tooCostly(line []byte, floor int64) string {
	limit, over := jsoncost.Over(line, floor)
	if !over {
		return ""
	}
	return fmt.Sprintf("wrote an answer line of %s that would take over %s once decoded (millions of empty arrays, objects or values); answer with fewer values in one line, or put bulky output in a file and name it in the answer", human.Size(int64(len(line))), human.Size(limit))
}
