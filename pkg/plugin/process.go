package plugin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/proc"
)

// procHandler serves an external plugin's hooks from one child process:
// started on the first call, reused, one JSON line per call
// ({point, payload} -> {outcome, reason?, payload?}), one respawn per call
// when the child is dead, a per-call timeout (the child is killed on
// timeout: its state is unknown), killed on Close.
type procHandler struct {
	m *Manifest
	childSlot
}

// childSlot holds the one child process of an external plugin or a host
// provider. mu is held for a whole call (one call at a time). env is the
// environment the child starts with (Assembly.childEnv).
type childSlot struct {
	mu     sync.Mutex
	proc   *childProc
	closed bool
	env    proc.EnvPolicy
}

// kill stops the child, if any; the next call starts a new one. The
// caller holds mu.
func (s *childSlot) kill() {
	if s.proc == nil {
		return
	}
	p := s.proc
	s.proc = nil
	p.stop()
}

// Close stops the child (childPolicy: stdin closed, a short grace, then a
// kill to its group). Later calls are refused.
func (s *childSlot) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.proc == nil {
		return nil
	}
	p := s.proc
	s.proc = nil
	p.close()
	return nil
}

type childProc struct {
	proc   *proc.Process
	stdin  io.WriteCloser
	lines  chan []byte // closed at EOF
	stderr *proc.Tail
	done   <-chan struct{} // closed when the process has exited
	quit   chan struct{}   // closed by kill: the reader stops delivering lines
	once   sync.Once
}

// childPolicy is how a hook or host-provider process runs
// (internal/proc): kitsoki's whole environment (a story's own program
// needs the user's configuration) unless the assembly asks for the minimal
// one (Options.MinimalEnv: kitsoki test), a stdin pipe, the last 4 KiB of
// stderr for errors, and on Close stdin closed, 500 ms to exit, then
// SIGKILL to its group (no SIGTERM: the protocol's stop is the end of
// stdin).
var childPolicy = proc.Policy{
	Env:        proc.Env{Policy: proc.EnvInherit},
	StdinPipe:  true,
	StderrTail: 4096,
	StdinGrace: 500 * time.Millisecond,
}

type request struct {
	Point   Point   `json:"point"`
	Payload Payload `json:"payload"`
}

func (h *procHandler) Hook(ctx context.Context, point Point, payload Payload) (Result, error) {
	line, err := json.Marshal(request{Point: point, Payload: payload})
	if err != nil {
		return Result{}, fmt.Errorf("hook payload does not encode as JSON: %v", err)
	}
	line = append(line, '\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return Result{}, errors.New("external plugin " + h.m.ID + " is closed")
	}
	for attempt := 0; ; attempt++ {
		if h.proc == nil {
			p, err := startChild(h.m, h.env)
			if err != nil {
				return Result{}, err
			}
			h.proc = p
		}
		res, dead, err := h.roundTrip(ctx, line)
		if err == nil {
			return res, nil
		}
		h.kill()
		if dead && attempt == 0 && ctx.Err() == nil {
			continue // one respawn per call for a dead child
		}
		return Result{}, err
	}
}

// roundTrip sends one request and reads one answer. dead reports that the
// child was gone (EOF, broken pipe) rather than misbehaving.
func (h *procHandler) roundTrip(ctx context.Context, line []byte) (Result, bool, error) {
	p := h.proc
	select {
	case <-p.done:
		return Result{}, true, h.crashErr(p, "had exited")
	default:
	}
	if _, err := p.stdin.Write(line); err != nil {
		return Result{}, true, h.crashErr(p, "could not be written to ("+err.Error()+")")
	}
	timer := time.NewTimer(h.m.Timeout())
	defer timer.Stop()
	select {
	case out, ok := <-p.lines:
		if !ok {
			<-p.done
			return Result{}, true, h.crashErr(p, "exited before answering")
		}
		res, err := parseResult(out)
		if err != nil {
			return Result{}, false, fmt.Errorf("external plugin %s answered with a line that is not a JSON result: %q (%v); answer one {\"outcome\":...} object per line", h.m.ID, truncate(string(out), 200), err)
		}
		return res, false, nil
	case <-timer.C:
		return Result{}, false, fmt.Errorf("external plugin %s did not answer within %s (entry.timeout_ms); the process was stopped", h.m.ID, h.m.Timeout())
	case <-ctx.Done():
		return Result{}, false, fmt.Errorf("external plugin %s: %v", h.m.ID, ctx.Err())
	}
}

func (h *procHandler) crashErr(p *childProc, what string) error {
	return p.crashErr(fmt.Sprintf("external plugin %s (%s)", h.m.ID, h.m.Entry.Command), what)
}

// crashErr is the error for a child that is gone: "<who> <what>", its exit
// status once it has exited (waiting at most 100 ms for that) and the tail
// of its stderr.
func (p *childProc) crashErr(who, what string) error {
	msg := who + " " + what
	select {
	case <-p.done:
		if err := p.proc.Wait(); err != nil {
			msg += ": " + err.Error()
		}
	case <-time.After(100 * time.Millisecond):
	}
	if t := strings.TrimSpace(p.stderr.String()); t != "" {
		msg += "; stderr: " + truncate(t, 512)
	}
	return errors.New(msg)
}

func (p *childProc) stop() {
	p.once.Do(func() { close(p.quit) })
	p.proc.Kill("the call failed or timed out")
}

// close stops the child with childPolicy: stdin closed, 500 ms to exit,
// then SIGKILL to its group.
func (p *childProc) close() {
	p.once.Do(func() { close(p.quit) })
	p.proc.Stop("the plugin closed")
}

func startChild(m *Manifest, env proc.EnvPolicy) (*childProc, error) {
	command := m.Entry.Command
	if strings.ContainsRune(command, filepath.Separator) && !filepath.IsAbs(command) {
		command = filepath.Join(m.Dir, command)
	}
	cmd := exec.Command(command, m.Entry.Args...)
	cmd.Dir = m.Dir
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	// Its own process group, and on Linux death with kitsoki: a killed
	// run leaves no hook or provider process behind.
	pol := childPolicy
	pol.Env.Policy = env
	pr, err := proc.Start(context.Background(), cmd, pol)
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("external plugin %s: cannot start %s: %v; fix entry.command in %s", m.ID, m.Entry.Command, errText(err), m.Path)
	}
	p := &childProc{proc: pr, stdin: pr.Stdin(), lines: make(chan []byte, 1), stderr: pr.Tail(), done: pr.Done(), quit: make(chan struct{})}
	go func() {
		defer stdout.Close()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		for sc.Scan() {
			b := append([]byte(nil), sc.Bytes()...)
			if len(strings.TrimSpace(string(b))) == 0 {
				continue
			}
			select {
			case p.lines <- b:
			case <-p.quit:
			}
		}
		close(p.lines)
	}()
	return p, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// parseResult decodes one answer line of an external hook process:
// {outcome, reason?, payload?}. Numbers become int64 or float64.
func parseResult(line []byte) (Result, error) {
	var res Result
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&res); err != nil {
		return Result{}, err
	}
	if dec.More() {
		return Result{}, errors.New("more than one JSON value on the line")
	}
	if res.Payload != nil {
		res.Payload = jsonvalue.Int64s(res.Payload).(map[string]any)
	}
	return res, nil
}
