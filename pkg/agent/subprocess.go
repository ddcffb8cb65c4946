package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"kitsoki/internal/closeonce"
	"kitsoki/internal/proc"
	"kitsoki/pkg/story"
)

// The subprocess transport: a plugin program speaking JSON-RPC 2.0 on its
// stdin/stdout, one compact JSON message per line, method "agent.ask",
// params = AskRequest, result = AskResponse. See docs in doc.go and the
// contract reference §2. Behaviour in short:
//
//   - the program (command:, args:) starts on the first Ask and is reused;
//     a relative command path with a slash and the working directory are
//     taken relative to the story directory; there is no shell;
//   - its environment is proc.EnvMinimal: a short inherited list plus env:;
//   - one request is in flight at a time; a caller waiting for its turn
//     still honours its context; reply ids are checked;
//   - stderr is kept (last 8 KiB, redacted) for plugin_crash details and
//     forwarded line by line to the debug logger (redacted);
//   - a crash, EOF, a non-JSON or foreign stdout line, or a reply with the
//     wrong id is plugin_crash with the exit status and the stderr tail; the
//     process is killed and the next Ask starts a new one;
//   - a JSON-RPC error reply is plugin_crash too, but the process is kept;
//   - a context that ends first is deadline_exceeded and the whole process
//     group is killed;
//   - Close closes stdin, sends SIGTERM to the group, SIGKILL after 2 s.

// subprocessTerminateGrace is how long Close waits after SIGTERM.
const subprocessTerminateGrace = 2 * time.Second

// subprocessPolicy is how a plugin program runs (internal/proc): the
// minimal environment plus env:, a stdin pipe, and on Close stdin closed
// with SIGTERM to its group at once, SIGKILL after grace. Its stderr goes
// to the plugin's redacting stderrTail.
func subprocessPolicy(env map[string]string, grace time.Duration) proc.Policy {
	return proc.Policy{
		Env:       proc.Env{Policy: proc.EnvMinimal, Vars: proc.Set(env)},
		StdinPipe: true,
		TermGrace: grace,
		WaitDelay: time.Second,
	}
}

// crashExitWait is how long a crash report waits for the process to exit on
// its own after stdout closed, so the exit status is the plugin's own.
const crashExitWait = 500 * time.Millisecond

type subprocessTransport struct {
	alias   string
	command string
	args    []string
	env     map[string]string
	dir     string
	log     *slog.Logger
	redact  func(string) string
	cut     func(s string, n int) int // where a long stderr line may be split
	grace   time.Duration

	turn   chan struct{} // one request in flight: holds a token while asking
	nextID int64         // guarded by turn

	mu     sync.Mutex // guards proc and closed
	proc   *pluginProcess
	closed bool
}

// newSubprocessTransport is the Builder for plugin: subprocess.
func newSubprocessTransport(p *story.AgentPlugin, bc BuildContext) (Transport, error) {
	if strings.TrimSpace(p.Command) == "" {
		return nil, fmt.Errorf("agent_plugins.%s: subprocess plugin requires command: (the program to run, e.g. command: ./bin/my-agent)", p.Alias)
	}
	cmd := p.Command
	if !filepath.IsAbs(cmd) && strings.ContainsRune(filepath.ToSlash(cmd), '/') && bc.StoryDir != "" {
		cmd = filepath.Join(bc.StoryDir, cmd)
	}
	return &subprocessTransport{
		alias:   p.Alias,
		command: cmd,
		args:    append([]string(nil), p.Args...),
		env:     maps.Clone(p.Env),
		dir:     bc.StoryDir,
		log:     bc.Logger,
		redact:  redactOrIdentity(bc.Redact),
		cut:     bc.cut,
		grace:   subprocessTerminateGrace,
		turn:    make(chan struct{}, 1),
	}, nil
}

// pluginProcess is one running plugin program.
type pluginProcess struct {
	proc   *proc.Process
	stdin  io.WriteCloser
	stderr *stderrTail

	lines   chan []byte   // complete stdout lines, in order
	readEnd chan struct{} // closed when stdout reached EOF or failed
	readErr error         // why; set before readEnd closes
	partial []byte        // bytes of an unterminated last line; set before readEnd closes
	abandon chan struct{} // closed to release the reader when nobody listens
	once    sync.Once
}

func (p *pluginProcess) release() { p.once.Do(func() { close(p.abandon) }) }

func (p *pluginProcess) dead() bool {
	select {
	case <-p.proc.Done():
		return true
	case <-p.readEnd:
		return true
	default:
		return false
	}
}

// status is the exit status text, once the process has exited.
func (p *pluginProcess) status() string {
	if !p.proc.Exited() {
		return "still running"
	}
	if ps := p.proc.State(); ps != nil {
		return ps.String()
	}
	return "unknown exit status"
}

// kill ends the process group and waits for the process to be reaped.
func (p *pluginProcess) kill() {
	p.release()
	p.proc.Kill("the call failed or its deadline passed")
}

var errFrameTooLarge = fmt.Errorf("an answer line longer than kitsoki's %d MiB frame cap (one JSON-RPC message per line, its sub-events included); put bulky output in a file and name it in the answer", maxFrameBytes>>20)

func (p *pluginProcess) readLoop(r *os.File) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readFrame(br)
		if err != nil {
			p.readErr = err
			p.partial = line
			close(p.readEnd)
			return
		}
		select {
		case p.lines <- line:
		case <-p.abandon:
			p.readErr = errors.New("abandoned")
			close(p.readEnd)
			return
		}
	}
}

// readFrame reads one '\n'-terminated line (without the '\n'), up to
// maxFrameBytes. On error it returns the bytes read so far.
func readFrame(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > maxFrameBytes {
			return buf, errFrameTooLarge
		}
		buf = append(buf, chunk...)
		switch err {
		case nil:
			return buf[:len(buf)-1], nil
		case bufio.ErrBufferFull:
			continue
		default:
			return buf, err
		}
	}
}

// spawn starts the plugin program. Called with t.mu held.
func (t *subprocessTransport) spawn() (*pluginProcess, error) {
	cmd := exec.Command(t.command, t.args...)
	cmd.Dir = t.dir
	r, w, err := os.Pipe()
	if err != nil {
		return nil, t.errf(KindPluginCrash, "cannot open the plugin's stdout: %v", err)
	}
	cmd.Stdout = w
	tail := newStderrTail(t.alias, t.log, t.redact)
	tail.cut = t.cut
	cmd.Stderr = tail
	pr, err := proc.Start(context.Background(), cmd, subprocessPolicy(t.env, t.grace))
	w.Close()
	if err != nil {
		r.Close()
		return nil, t.errf(KindPluginCrash, "cannot start %q: %v; check command: in agent_plugins.%s (an absolute path, a path relative to the story directory, or a program on PATH)",
			t.command, err, t.alias)
	}
	p := &pluginProcess{
		proc: pr, stdin: pr.Stdin(), stderr: tail,
		lines:   make(chan []byte),
		readEnd: make(chan struct{}),
		abandon: make(chan struct{}),
	}
	go p.readLoop(r)
	if t.log != nil {
		t.log.Debug("agent plugin started", "agent", t.alias, "pid", pr.Pid())
	}
	return p, nil
}

// process returns the running plugin, starting one when there is none or
// the previous one died between calls.
func (t *subprocessTransport) process() (*pluginProcess, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, t.errf(KindTransportError, "the transport is closed (Ask after Close)")
	}
	if p := t.proc; p != nil {
		if !p.dead() {
			return p, nil
		}
		if t.log != nil {
			t.log.Debug("agent plugin exited between calls; starting a new one", "agent", t.alias, "status", p.status())
		}
		t.proc = nil
		go p.kill()
	}
	p, err := t.spawn()
	if err != nil {
		return nil, err
	}
	t.proc = p
	return p, nil
}

// forget drops p as the current process (if it still is) and kills it.
func (t *subprocessTransport) forget(p *pluginProcess) {
	t.mu.Lock()
	if t.proc == p {
		t.proc = nil
	}
	t.mu.Unlock()
	p.kill()
}

func (t *subprocessTransport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

type rpcRequestFrame struct {
	JSONRPC string      `json:"jsonrpc"`
	ID      int64       `json:"id"`
	Method  string      `json:"method"`
	Params  *AskRequest `json:"params"`
}

// Ask sends one agent.ask request and waits for its reply.
func (t *subprocessTransport) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	select {
	case t.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, t.errf(KindDeadlineExceeded, "the call ended (%v) while waiting for the previous call to this plugin to finish", ctx.Err())
	}
	defer func() { <-t.turn }()
	if err := ctx.Err(); err != nil {
		return nil, t.errf(KindDeadlineExceeded, "the call ended (%v) before it was sent", err)
	}
	p, err := t.process()
	if err != nil {
		return nil, err
	}
	t.nextID++
	id := t.nextID
	frame, err := json.Marshal(rpcRequestFrame{JSONRPC: "2.0", ID: id, Method: "agent.ask", Params: req})
	if err != nil {
		return nil, t.errf(KindTransportError, "cannot encode the request: %v", err)
	}
	frame = append(frame, '\n')

	wrote := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(frame)
		wrote <- err
	}()
	for {
		select {
		case err := <-wrote:
			wrote = nil
			if err != nil {
				return nil, t.crash(p, fmt.Sprintf("could not write the request to its stdin (%v)", err))
			}
		case line := <-p.lines:
			resp, aerr, keep := t.parseReply(line, id)
			if !keep {
				t.forget(p)
				aerr.Detail += t.stderrSuffix(p)
			}
			if aerr != nil {
				return nil, aerr
			}
			return resp, nil
		case <-p.readEnd:
			if t.isClosed() {
				t.forget(p)
				return nil, t.errf(KindTransportError, "the transport was closed while the call was in flight")
			}
			what := "closed its stdout before answering"
			switch {
			case errors.Is(p.readErr, errFrameTooLarge):
				what = "wrote " + p.readErr.Error()
			case len(p.partial) > 0:
				what = fmt.Sprintf("stopped in the middle of an answer (partial line: %q)", detailSnippet(t.redact, string(p.partial)))
			case p.readErr != nil && !errors.Is(p.readErr, io.EOF):
				what = fmt.Sprintf("stdout failed (%v)", p.readErr)
			}
			return nil, t.crash(p, what)
		case <-ctx.Done():
			t.forget(p)
			return nil, t.errf(KindDeadlineExceeded, "no answer before the call's deadline (%v); the plugin's process group was killed and the next call starts a new process%s",
				ctx.Err(), t.stderrSuffix(p))
		}
	}
}

// crash reports p's death as plugin_crash with its exit status and stderr.
func (t *subprocessTransport) crash(p *pluginProcess, what string) *AskError {
	select {
	case <-p.proc.Done():
	case <-time.After(crashExitWait):
	}
	status := p.status()
	t.forget(p)
	if status == "still running" {
		status = "killed by kitsoki after the failure (" + p.status() + ")"
	}
	return t.errf(KindPluginCrash, "the plugin %s; %s; the next call starts a new process%s", what, status, t.stderrSuffix(p))
}

func (t *subprocessTransport) stderrSuffix(p *pluginProcess) string {
	s := p.stderr.String()
	if s == "" {
		return "; stderr: (empty)"
	}
	return "; stderr (last 8 KiB):\n" + s
}

// rpcReplyFrame is a JSON-RPC 2.0 response as read from the plugin. The
// result decodes straight into an AskResponse (one pass over a large
// answer); rpcReplyFrameRaw is the fallback that explains a result of the
// wrong shape.
type rpcReplyFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  *AskResponse    `json:"result"`
	Error   *rpcErrorObject `json:"error"`
}

type rpcReplyFrameRaw struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcErrorObject `json:"error"`
}

type rpcErrorObject struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// parseReply decodes one stdout line as the reply to request id. keep is
// false when the line breaks the protocol and the process must go.
func (t *subprocessTransport) parseReply(line []byte, id int64) (resp *AskResponse, aerr *AskError, keep bool) {
	var f rpcReplyFrame
	var resultErr error
	if err := json.Unmarshal(line, &f); err != nil {
		var raw rpcReplyFrameRaw
		if rerr := json.Unmarshal(line, &raw); rerr != nil {
			return nil, t.errf(KindPluginCrash, "the plugin wrote a stdout line that is not a JSON-RPC message (%v): %q; plugins must write only JSON-RPC frames to stdout and log to stderr; the process was killed",
				rerr, detailSnippet(t.redact, string(line))), false
		}
		// Valid JSON-RPC, but the result is not an AskResponse.
		f = rpcReplyFrame{JSONRPC: raw.JSONRPC, ID: raw.ID, Method: raw.Method, Error: raw.Error}
		resultErr = err
		if len(raw.Result) > 0 {
			var r AskResponse
			if rerr := json.Unmarshal(raw.Result, &r); rerr != nil {
				resultErr = fmt.Errorf("%v: %q", rerr, detailSnippet(t.redact, string(raw.Result)))
			}
		}
	}
	if f.JSONRPC != "2.0" {
		return nil, t.errf(KindPluginCrash, `the plugin's reply has "jsonrpc":%q, want "2.0" (line: %q); the process was killed`,
			f.JSONRPC, detailSnippet(t.redact, string(line))), false
	}
	if got := string(bytes.TrimSpace(f.ID)); got != strconv.FormatInt(id, 10) {
		if f.Method != "" {
			got = "none; it is a " + strconv.Quote(f.Method) + " message"
		}
		return nil, t.errf(KindPluginCrash, "the plugin's reply id is %s, want %d: plugins must answer each request once, in order, echoing its id; the process was killed",
			got, id), false
	}
	if f.Error != nil {
		d := fmt.Sprintf("the plugin answered JSON-RPC error %d: %s", f.Error.Code, detailSnippet(t.redact, f.Error.Message))
		if len(f.Error.Data) > 0 && string(f.Error.Data) != "null" {
			d += " (data: " + detailSnippet(t.redact, string(f.Error.Data)) + ")"
		}
		return nil, t.errf(KindPluginCrash, "%s", d), true
	}
	if resultErr != nil {
		return nil, t.errf(KindPluginCrash, "the plugin's result is not an AskResponse (%v)", resultErr), true
	}
	if f.Result == nil {
		return nil, t.errf(KindPluginCrash, "the plugin's reply %d has neither result nor error", id), true
	}
	return f.Result, nil, true
}

func (t *subprocessTransport) errf(kind Kind, format string, args ...any) *AskError {
	return pluginError(t.redact, "subprocess plugin "+t.alias, kind, format, args...)
}

// Close stops the plugin: stdin closed, SIGTERM to its process group,
// SIGKILL after 2 s. Idempotent; a call in flight fails with transport_error.
func (t *subprocessTransport) Close() error {
	var p *pluginProcess
	if !closeonce.Mark(&t.mu, &t.closed, func() { p, t.proc = t.proc, nil }) || p == nil {
		return nil
	}
	p.proc.Stop("the transport closed") // also reaches children left in its group
	p.release()
	return nil
}
