package childproc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"kitsoki/internal/proc"
)

// exitWait is how long a failed call waits for a child whose stdout ended
// (or could not be written to) to exit on its own, so the error carries
// the child's own exit status rather than kitsoki's kill.
const exitWait = 2 * time.Second

// child is one running child process.
type child struct {
	proc   *proc.Process
	stdin  io.WriteCloser
	stdout *os.File // the read end of its stdout, closed by release
	stderr *Stderr
	out    *outCount // what the reader holds of stdout (barrier.go)

	lines   chan []byte   // complete stdout lines, in order
	readEnd chan struct{} // closed when stdout reached EOF or failed
	readErr error         // why; set before readEnd closes
	partial []byte        // an unterminated last line; set before readEnd closes
	abandon chan struct{} // closed to release the reader when nobody listens
	once    sync.Once

	// Between calls a goroutine takes the lines (drainIdle); a call stops
	// it (quiet) before it writes its request. Both run in the client's
	// turn, so these need no lock.
	idleStop chan struct{}
	idleDone chan struct{}
	// answered counts the lines a call took as its answer (a decoder's
	// verdict but Fatal and Skip); touched only in the client's turn.
	answered int
}

// drainIdle starts handing the lines c writes to stray until quiet is
// called or its stdout ends; blank lines are passed over under loose.
func (c *child) drainIdle(stray func([]byte), loose bool) {
	stop, done := make(chan struct{}), make(chan struct{})
	c.idleStop, c.idleDone = stop, done
	go func() {
		defer close(done)
		for {
			select {
			case line := <-c.lines:
				if loose && len(bytes.TrimSpace(line)) == 0 {
					continue
				}
				stray(line)
			case <-c.readEnd:
				return
			case <-stop:
				return
			}
		}
	}()
}

// quiet stops drainIdle's goroutine and waits for it: a line it took is
// reported before the next request is written, and no line is taken by
// both.
func (c *child) quiet() {
	if c.idleStop == nil {
		return
	}
	close(c.idleStop)
	<-c.idleDone
	c.idleStop, c.idleDone = nil, nil
}

// ended reports a stdout that ended.
func (c *child) ended() bool {
	select {
	case <-c.readEnd:
		return true
	default:
		return false
	}
}

// read delivers r's lines until it ends or the child is abandoned.
func (c *child) read(r *os.File, max int) {
	defer r.Close()
	fr := frameReader{br: bufio.NewReaderSize(stdoutReader(r, c.out), 64<<10), max: max}
	for {
		line, err := fr.next()
		if err != nil {
			c.readErr, c.partial = err, line
			close(c.readEnd)
			return
		}
		select {
		case c.lines <- line:
			c.out.handedLine(line)
		case <-c.abandon:
			c.readErr = errors.New("abandoned")
			close(c.readEnd)
			return
		}
	}
}

// release lets the reader go: it stops handing lines over and its read
// ends, even while a process outside the child's group (one that left it
// with setsid) still holds the pipe open.
func (c *child) release() {
	c.once.Do(func() {
		close(c.abandon)
		if c.stdout != nil {
			_ = c.stdout.Close()
		}
	})
}

// dead reports a child that exited or whose stdout ended.
func (c *child) dead() bool {
	select {
	case <-c.proc.Done():
		return true
	case <-c.readEnd:
		return true
	default:
		return false
	}
}

// status is the exit status text once the child has exited.
func (c *child) status() string {
	if ps := c.proc.State(); ps != nil {
		return ps.String()
	}
	return "unknown exit status"
}

// kill ends the child's process group at once and waits for it to be
// reaped (its stderr is then complete).
func (c *child) kill() {
	c.release()
	c.proc.Kill()
}
