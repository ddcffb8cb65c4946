package childproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"

	"kitsoki/internal/closeonce"
	"kitsoki/internal/proc"
	"kitsoki/internal/safefile"
)

// Config is one child: what to run, how it runs, and how errors name it.
type Config struct {
	// Who names the child at the start of every error: "subprocess plugin
	// agent.x", "external plugin audit (./bin/audit)".
	Who string

	// Command, Args and Dir are the program (no shell), its arguments and
	// its working directory; the caller resolves relative paths.
	Command string
	Args    []string
	Dir     string
	// Policy is how the child runs and stops; New turns StdinPipe on and
	// StderrTail off (the client keeps the stderr tail itself).
	Policy proc.Policy
	// StartHint follows a start failure: what to fix ("check command: in
	// agent_plugins.x").
	StartHint string
	// SHA256, when set, pins the program file: it is hashed before every
	// start and a different digest refuses the start (pin.go); PinWhere
	// names the pin in that error ("entry.sha256 in <manifest>").
	SHA256   string
	PinWhere string

	// Timeout bounds each call (0: the caller's context alone);
	// TimeoutHint names where it is set ("entry.timeout_ms").
	Timeout     time.Duration
	TimeoutHint string
	// After arms one call's Timeout (nil: a real timer): a test's seam.
	After func(time.Duration) <-chan time.Time
	// ExitGrace is how long a call waits for the last output of a child
	// that is gone before answering (0: exitWait): a test's seam.
	ExitGrace time.Duration

	// Loose skips whitespace-only lines and takes a last line without its
	// '\n' when stdout ends (bufio.Scanner's lines, as the hook and
	// host-provider protocols read). Without it an unterminated line is
	// [Partial].
	Loose bool

	// Redact masks secrets in everything the child wrote before it reaches
	// an error or the log; Cut picks where a long stderr line may be split
	// for the log (see [NewStderr]). Nil: none.
	Redact func(string) string
	Cut    func(s string, n int) int
	// Log is the debug log (nil: none): LogName+" started", LogName+"
	// stderr" for each stderr line, with LogAttrs.
	Log      *slog.Logger
	LogName  string
	LogAttrs []any

	// Stray receives each stdout line the child wrote while no call was
	// waiting for an answer (after the previous call's answer, before the
	// next request is written): a second answer, a late one, a stray
	// print. Called from the client's own goroutine, one line at a time;
	// the line is dropped after it returns. Nil: such a line waits and is
	// read by the next call. A line written while a call waits goes to that
	// call's decoder, which may [Skip] it.
	Stray func(line []byte)

	// FrameCap lowers the frame cap below [MaxFrame] for a caller's tests,
	// which reach it at a small size; 0, or more than MaxFrame, is
	// MaxFrame.
	FrameCap int

	// costFloor is jsoncost.Floor in tooCostly, which this package's tests
	// lower (0: jsoncost.Floor).
	costFloor int64
}

// Request is one call: Frame is the request (one JSON value without its
// '\n'; Call may write the '\n' into its spare capacity), or Encode builds
// it once the call has its turn; an Encode error is returned as it is.
// Decode reads the answer line. About, when set, names the call in errors.
type Request struct {
	Frame  []byte
	Encode func() ([]byte, error)
	About  string
	Decode func(line []byte) error
}

// Client is the connection to one child, started on the first call.
type Client struct {
	cfg  Config
	turn chan struct{} // one call in flight: holds a token while calling

	mu     sync.Mutex // guards child and closed
	child  *child
	closed bool
}

// New returns a client for cfg; nothing starts until the first call.
func New(cfg Config) *Client {
	if cfg.FrameCap <= 0 || cfg.FrameCap > MaxFrame {
		cfg.FrameCap = MaxFrame
	}
	cfg.Policy.StdinPipe = true
	cfg.Policy.StderrTail = 0
	return &Client{cfg: cfg, turn: make(chan struct{}, 1)}
}

// Call writes r.Frame and hands the child's answer to r.Decode. It returns
// nil, Decode's error (the child kept), or an [*Error].
func (c *Client) Call(ctx context.Context, r Request) error {
	select {
	case c.turn <- struct{}{}:
	case <-ctx.Done():
		return c.fail(Canceled, "gave no answer: the call ended ("+ctx.Err().Error()+") while waiting for the previous call to it to finish", context.Cause(ctx))
	}
	defer func() { <-c.turn }()
	if err := c.notAsked(ctx); err != nil {
		return err
	}
	ch, err := c.current()
	if err != nil {
		return err
	}
	ch.quiet()       // from here on, what the child writes is this call's
	defer c.idle(ch) // and after it, a stray
	if err := c.settle(ctx, ch); err != nil {
		return err
	}
	frame := r.Frame
	if r.Encode != nil {
		if frame, err = r.Encode(); err != nil {
			return err
		}
	}
	frame = append(frame, '\n') // in the frame's spare capacity, if any
	wrote := make(chan error, 1)
	go func() {
		_, err := ch.stdin.Write(frame)
		wrote <- err
	}()
	expire, stop := c.expiry()
	defer stop()
	about := ""
	if r.About != "" {
		about = " " + r.About
	}
	// Once the child is gone before its answer was read (it exited, or
	// stopped reading its stdin), what it wrote is still in the pipe: the
	// call waits at most ExitGrace more for it (gone), then fails with lost.
	exited := ch.proc.Done()
	var gone <-chan time.Time
	var lost func() error
	for {
		select {
		case err := <-wrote:
			wrote = nil
			if err != nil && c.isClosed() { // Close closed its stdin
				return c.closedInFlight(ch, about)
			}
			if err != nil {
				// It stopped reading, maybe after answering without
				// reading the whole request: the answer wins if it comes.
				werr := err
				gone, lost = armGone(gone, lost, c.exitGrace(), func() error {
					return c.drop(ch, Write, true, fmt.Sprintf("could not be sent the request%s (writing its stdin: %v)", about, werr), werr)
				})
			}
		case <-exited:
			exited = nil
			// A process the child started may hold its stdout open, which
			// would keep this call waiting for its timeout: its group goes
			// now, and the pipe delivers what the child wrote (or ends).
			ch.proc.Kill()
			gone, lost = armGone(gone, lost, c.exitGrace(), func() error {
				return c.drop(ch, Exited, false, "exited before answering"+about+" (a process it started outside its process group still holds its stdout)", io.ErrUnexpectedEOF)
			})
		case <-gone:
			if err, ok := c.answered(ch, r); ok { // the answer and the grace's end came together
				return err
			}
			return lost()
		case line := <-ch.lines:
			if c.cfg.Loose && len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if err, skip := c.decode(ch, r, line); !skip {
				return err
			}
		case <-ch.readEnd:
			if c.lastLine(ch) {
				if err, skip := c.decode(ch, r, ch.partial); !skip { // the child is gone: the next call starts a new one
					return err
				}
			}
			return c.ended(ch, about)
		case <-expire:
			if err, ok := c.answered(ch, r); ok { // answered as the clock ran out
				return err
			}
			hint := ""
			if c.cfg.TimeoutHint != "" {
				hint = " (" + c.cfg.TimeoutHint + ")"
			}
			return c.drop(ch, Timeout, false, fmt.Sprintf("did not answer%s within %s%s", about, c.cfg.Timeout, hint), context.DeadlineExceeded)
		case <-ctx.Done():
			if err, ok := c.answered(ch, r); ok {
				return err
			}
			return c.drop(ch, Canceled, false, fmt.Sprintf("gave no answer%s before the call's deadline (%v)", about, ctx.Err()), context.Cause(ctx))
		}
	}
}

// notAsked is the call's failure when ctx ended before its request was
// written, nil while it has not.
func (c *Client) notAsked(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return c.fail(Canceled, "was not asked: the call ended ("+err.Error()+") before it was sent", context.Cause(ctx))
	}
	return nil
}

// settle runs the barrier (barrier.go) before the request is written:
// what the child wrote before it goes to Stray, not to this call; a line
// it began then fails the call unsent.
func (c *Client) settle(ctx context.Context, ch *child) error {
	if c.cfg.Stray == nil {
		return nil
	}
	if n := ch.settle(ctx.Done(), c.cfg.Stray, c.cfg.Loose); n > 0 {
		return c.drop(ch, Protocol, false, unaskedText(n), errUnasked)
	}
	return c.notAsked(ctx)
}

// expiry is the per-call timeout's channel (nil without one) and the
// function that stops its timer.
func (c *Client) expiry() (<-chan time.Time, func()) {
	switch {
	case c.cfg.Timeout <= 0:
		return nil, func() {}
	case c.cfg.After != nil:
		return c.cfg.After(c.cfg.Timeout), func() {}
	}
	t := time.NewTimer(c.cfg.Timeout)
	return t.C, func() { t.Stop() }
}

// armGone arms the wait for a gone child's last output (grace) with the
// failure f, unless it is armed already: the first cause stands.
func armGone(gone <-chan time.Time, lost func() error, grace time.Duration, f func() error) (<-chan time.Time, func() error) {
	if gone != nil {
		return gone, lost
	}
	return time.After(grace), f
}

// exitGrace is Config.ExitGrace, exitWait when unset.
func (c *Client) exitGrace() time.Duration {
	if c.cfg.ExitGrace > 0 {
		return c.cfg.ExitGrace
	}
	return exitWait
}

// waiting returns an answer line the child already wrote, without
// waiting for one: when the deadline and the answer are ready together,
// select picks either, and the answer must win. The answer is the next
// line the reader holds (blank ones skipped under Loose) or, under Loose,
// the unterminated last line of a stdout that ended.
func (c *Client) waiting(ch *child) ([]byte, bool) {
	for {
		select {
		case line := <-ch.lines:
			if c.cfg.Loose && len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return line, true
		case <-ch.readEnd:
			return ch.partial, c.lastLine(ch)
		default:
			return nil, false
		}
	}
}

// answered decodes an answer the child already wrote (waiting), passing
// over the lines the decoder skips; ok is false when there is none.
func (c *Client) answered(ch *child, r Request) (err error, ok bool) {
	for {
		line, ok := c.waiting(ch)
		if !ok {
			return nil, false
		}
		if err, skip := c.decode(ch, r, line); !skip {
			return err, true
		}
		if ch.ended() {
			return nil, false
		}
	}
}

// lastLine reports, once ch's stdout ended, an unterminated last line
// that counts as the answer (Loose).
func (c *Client) lastLine(ch *child) bool {
	return c.cfg.Loose && errors.Is(ch.readErr, io.EOF) && len(bytes.TrimSpace(ch.partial)) > 0 && !c.isClosed()
}

// decode hands line to r.Decode; a [Fatal] error ends the child, a
// [Skip] one (skip) means the call goes on waiting.
func (c *Client) decode(ch *child, r Request, line []byte) (err error, skip bool) {
	if what := tooCostly(line, c.cfg.costFloor); what != "" {
		return c.drop(ch, TooLarge, false, what, errTooCostly), false
	}
	err = r.Decode(line)
	if errors.Is(err, errSkip) {
		return nil, true
	}
	if f, ok := errors.AsType[fatal](err); ok {
		return c.drop(ch, Protocol, false, f.err.Error(), f.err), false
	}
	ch.answered++
	return err, false
}

// idle hands what ch writes between calls to Config.Stray, once a call
// left it the current child.
func (c *Client) idle(ch *child) {
	if c.cfg.Stray == nil {
		return
	}
	c.mu.Lock()
	current := c.child == ch && !c.closed
	c.mu.Unlock()
	if current {
		ch.drainIdle(c.cfg.Stray, c.cfg.Loose)
	}
}

// ended explains a stdout that ended before the answer.
func (c *Client) ended(ch *child, about string) error {
	if c.isClosed() {
		return c.closedInFlight(ch, about)
	}
	switch {
	case errors.Is(ch.readErr, errFrameTooLarge):
		return c.drop(ch, TooLarge, false, tooLargeText(c.cfg.FrameCap), ch.readErr) // it is still writing that line: it will not exit on its own
	case len(ch.partial) > 0:
		return c.drop(ch, Partial, true, fmt.Sprintf("stopped in the middle of an answer%s (partial line: %q)", about, Snippet(c.cfg.Redact, string(ch.partial))), ch.readErr)
	case ch.readErr != nil && !errors.Is(ch.readErr, io.EOF):
		return c.drop(ch, Exited, true, fmt.Sprintf("could not be read%s (its stdout failed: %v)", about, ch.readErr), ch.readErr)
	}
	what := "closed its stdout before answering" + about
	if ch.proc.WaitFor(exitWait) {
		what = "exited before answering" + about
		if ps := ch.proc.State(); ps != nil && ps.ExitCode() == 0 && ch.answered > 0 {
			what += oneShotHint
		}
	}
	return c.drop(ch, Exited, false, what, io.ErrUnexpectedEOF)
}

// oneShotHint explains a child that exited cleanly after answering an
// earlier call: a program that serves one request and exits, whose next
// call fails or not depending on whether its exit was seen first.
const oneShotHint = " (it exited with status 0 after answering an earlier call, as a program serving one request does: keep reading requests, one per line, until stdin closes; one process serves every call)"

// closedInFlight is the error of a call that Close cut short.
func (c *Client) closedInFlight(ch *child, about string) error {
	c.forget(ch)
	return &Error{Who: c.cfg.Who, Failure: Closed, What: "was closed while the call" + about + " was in flight", Err: ErrClosed}
}

// errUnasked is the cause of a call refused after the child began a line
// while no call waited.
var errUnasked = errors.New("output while no call was waiting")

// ErrClosed is the cause of a call refused or cut short by Close.
var ErrClosed = errors.New("closed")

// fail is an error of a call that never reached a child.
func (c *Client) fail(f Failure, what string, cause error) *Error {
	return &Error{Who: c.cfg.Who, Failure: f, What: what, Err: cause}
}

// drop ends ch after a failed call and describes it: when wait is set the
// child gets a moment to exit on its own so its exit status is its own.
func (c *Client) drop(ch *child, f Failure, wait bool, what string, cause error) *Error {
	if wait {
		ch.proc.WaitFor(exitWait)
	}
	status := "its process group was killed"
	if ch.proc.Exited() {
		status = ch.status()
	}
	c.forget(ch)
	return &Error{Who: c.cfg.Who, Failure: f, What: what, Status: status, Stderr: ch.stderr.String(), Started: true, Err: cause}
}

// current returns the running child, starting one when there is none or
// the previous one died between calls.
func (c *Client) current() (*child, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, c.fail(Closed, "is closed (called after Close)", ErrClosed)
	}
	if ch := c.child; ch != nil {
		if !ch.dead() {
			return ch, nil
		}
		c.debug("exited between calls; starting a new one", "status", ch.status())
		c.child = nil
		go ch.kill()
	}
	ch, err := c.spawn()
	if err != nil {
		return nil, err
	}
	c.child = ch
	return ch, nil
}

// spawn starts the child. Called with c.mu held.
func (c *Client) spawn() (*child, error) {
	cmd := exec.Command(c.cfg.Command, c.cfg.Args...)
	cmd.Dir = c.cfg.Dir
	if c.cfg.SHA256 != "" && cmd.Err == nil { // a program not found fails the start below
		if err := checkPin(cmd.Path, cmd.Dir, c.cfg.SHA256, c.cfg.PinWhere); err != nil {
			return nil, c.fail(Start, "was not started: "+err.Error(), err)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, c.fail(Start, fmt.Sprintf("cannot be started: no pipe for its stdout (%v)", err), err)
	}
	cmd.Stdout = w
	stderr := NewStderr(c.cfg.Log, c.cfg.LogName+" stderr", c.cfg.LogAttrs, c.cfg.Redact, c.cfg.Cut)
	cmd.Stderr = stderr
	pr, err := proc.Start(context.Background(), cmd, c.cfg.Policy)
	w.Close()
	if err != nil {
		r.Close()
		what := fmt.Sprintf("cannot start %q: %v", c.cfg.Command, safefile.ErrText(err)) // without "fork/exec <path>: "
		if c.cfg.StartHint != "" {
			what += "; " + c.cfg.StartHint
		}
		return nil, c.fail(Start, what, err)
	}
	ch := &child{
		proc: pr, stdin: pr.Stdin(), stdout: r, stderr: stderr, out: newOutCount(),
		lines:   make(chan []byte),
		readEnd: make(chan struct{}),
		abandon: make(chan struct{}),
	}
	go ch.read(r, c.cfg.FrameCap)
	c.debug("started", "pid", pr.Pid())
	return ch, nil
}

func (c *Client) debug(msg string, kv ...any) {
	if c.cfg.Log == nil {
		return
	}
	c.cfg.Log.Debug(c.cfg.LogName+" "+msg, append(slices.Clip(c.cfg.LogAttrs), kv...)...)
}

// forget drops ch as the current child (if it still is) and kills it.
func (c *Client) forget(ch *child) {
	c.mu.Lock()
	if c.child == ch {
		c.child = nil
	}
	c.mu.Unlock()
	ch.kill()
}

func (c *Client) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Close stops the child with its policy's stop sequence and refuses later
// calls; a call in flight fails with [Closed]. Idempotent.
func (c *Client) Close() error {
	var ch *child
	if !closeonce.Mark(&c.mu, &c.closed, func() { ch, c.child = c.child, nil }) || ch == nil {
		return nil
	}
	ch.proc.Stop() // also reaches children left in its group
	ch.release()
	return nil
}
