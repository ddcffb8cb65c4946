package childproc

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// The barrier: before a request is written, everything the child wrote
// to its stdout since the line a call or the idle drainer last took is
// accounted for, so a second answer written in the same breath as the
// first (still in the pipe, or in the reader's buffer, when the next call
// starts) is a stray, never that call's answer. The protocols of hooks and
// host providers have no request id, so when a line was written is the
// only thing that tells an answer from a leftover; a line the child
// writes after the request was sent still cannot be told from its answer.
//
// The reader counts, under out.mu, the bytes it read and has not yet
// handed over as lines (held, nonblank of them not whitespace); the pipe
// tells how many it holds unread (pipeUnread). Both are read under the
// same lock as the reader's read syscall, so no byte is missed or counted
// twice. Where the pipe is not asked (not Linux), there is no barrier:
// the idle drainer alone takes strays.

// outCount is the reader's account of the child's stdout.
type outCount struct {
	mu       sync.Mutex
	held     int  // bytes read, not yet handed over as a line
	nonblank int  // of held, the bytes that are not ASCII whitespace
	waiting  bool // the reader found the pipe empty and waits for it
	// progress is signalled (never blocking) after each change above.
	progress chan struct{}
}

func newOutCount() *outCount { return &outCount{progress: make(chan struct{}, 1)} }

func (o *outCount) signal() {
	select {
	case o.progress <- struct{}{}:
	default:
	}
}

// read records n bytes p read from the pipe. Called with o.mu held.
func (o *outCount) read(p []byte) {
	o.held += len(p)
	o.nonblank += nonSpace(p)
	o.waiting = false
}

// handed records a line handed over (its '\n' included).
func (o *outCount) handed(line []byte) {
	o.mu.Lock()
	o.held -= len(line) + 1
	o.nonblank -= nonSpace(line)
	o.mu.Unlock()
	o.signal()
}

// nonSpace counts the bytes of p that are not ASCII whitespace.
func nonSpace(p []byte) int {
	n := 0
	for _, b := range p {
		switch b {
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			n++
		}
	}
	return n
}

// settle runs the barrier on c before a request is written: each whole
// line the child wrote since the last one taken goes to stray (blank
// ones are passed over under loose); an unterminated line that is not
// blank is returned as its size (unasked > 0), since the request's
// answer would be read glued to it. A stdout that ended settles at once:
// the call finds it ended.
func (c *child) settle(stray func([]byte), loose bool) (unasked int) {
	o := c.out
	for {
		inPipe, ok := pipeUnread(c.stdout, o)
		if !ok {
			return 0
		}
		o.mu.Lock()
		nonblank, waiting, held := o.nonblank, o.waiting, o.held
		o.mu.Unlock()
		if inPipe == 0 && nonblank == 0 {
			return 0
		}
		if inPipe == 0 && waiting { // all read, no '\n' among it: a partial line
			return held
		}
		select {
		case line := <-c.lines:
			if loose && nonSpace(line) == 0 {
				continue
			}
			stray(line)
		case <-c.readEnd:
			return 0
		case <-o.progress:
		}
	}
}

// unaskedText explains settle's partial line.
func unaskedText(n int) string {
	return fmt.Sprintf("wrote %d byte(s) of a line while no call was waiting for an answer (after its last answer), so this call was not sent: its answer would be read glued to them; answer each call exactly once, one line, and only after reading its request", n)
}

// stdoutReader is what the reader goroutine reads f through: counted in
// o where the barrier is supported.
func stdoutReader(f *os.File, o *outCount) io.Reader {
	if r := countedReader(f, o); r != nil {
		return r
	}
	return f
}
