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
// tells how many it holds unread (snap). Both are read under the
// same lock as the reader's read syscall, so no byte is missed or counted
// twice. Where the pipe is not asked (not Linux), there is no barrier:
// the idle drainer alone takes strays.

// outCount is the reader's account of the child's stdout.
type outCount struct {
	mu       sync.Mutex
	held     int  // bytes read, not yet handed over as a line
	nonblank int  // of held, the bytes that are not ASCII whitespace
	handed   int  // bytes handed over as lines so far, '\n's included
	waiting  bool // the reader found the pipe empty and waits for it
	// progress is signalled (never blocking) after each change above.
	progress chan struct{}
}

// snapshot is outCount and the pipe's unread bytes at one moment.
type snapshot struct {
	inPipe, held, nonblank, handed int
	waiting                        bool
}

// take reads o into a snapshot with inPipe. Called with o.mu held.
func (o *outCount) take(inPipe int) snapshot {
	return snapshot{inPipe: inPipe, held: o.held, nonblank: o.nonblank, handed: o.handed, waiting: o.waiting}
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
func (o *outCount) handedLine(line []byte) {
	o.mu.Lock()
	o.held -= len(line) + 1
	o.handed += len(line) + 1
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
// line the child wrote before now and since the last one taken goes to
// stray (blank ones are passed over under loose); an unterminated line
// that is not blank is returned as its size (unasked > 0), since the
// request's answer would be read glued to it. Only what was written
// before the first look counts, so a child that never stops writing
// cannot hold the call here; a stdout that ended or the end of done
// settles at once (the call finds either).
func (c *child) settle(done <-chan struct{}, stray func([]byte), loose bool) (unasked int) {
	s, ok := snap(c.stdout, c.out)
	if !ok || s.inPipe == 0 && s.nonblank == 0 {
		return 0
	}
	target := s.handed + s.held + s.inPipe // every byte written until now
	for {
		if s.inPipe == 0 && s.waiting { // all read and no '\n' among it: part of a line
			if s.nonblank > 0 {
				return s.held
			}
			return 0
		}
		select {
		case line := <-c.lines:
			if !loose || nonSpace(line) > 0 {
				stray(line)
			}
		case <-c.out.progress:
		case <-c.readEnd:
			return 0
		case <-done:
			return 0
		}
		if s, ok = snap(c.stdout, c.out); !ok || s.handed >= target {
			return 0
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
