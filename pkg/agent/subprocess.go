package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"kitsoki/internal/childproc"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/proc"
	"kitsoki/pkg/story"
)

// The subprocess transport: a plugin program speaking JSON-RPC 2.0 on its
// stdin/stdout, one compact message per line, method "agent.ask", params an
// AskRequest, result an AskResponse; the process lifecycle is
// internal/childproc's. A broken stream (crash, EOF, a bad or foreign line,
// a reply id no request had) kills the process; a JSON-RPC error or a
// result that is not an AskResponse keeps it. A reply to an earlier request
// (a second or late answer), a notification and whatever the plugin writes
// while no call waits answer no call: they are reported as stray with the
// plugin's next call (notes.go), never taken as its answer. Item by item:
// docs/compat/agent-contract.md §2, docs/contract-coverage.md.

// subprocessTerminateGrace is how long Close waits after SIGTERM.
const subprocessTerminateGrace = 2 * time.Second

type subprocessTransport struct {
	alias  string
	redact func(string) string
	client *childproc.Client
	nextID int64 // the last request id; advanced inside the client's turn
	// stray is what the plugin wrote between calls (a second answer, a
	// print), kept for the next call's trace event (notes.go).
	stray strayLog
}

// newSubprocessTransport is the Builder for plugin: subprocess.
func newSubprocessTransport(p *story.AgentPlugin, bc BuildContext) (Transport, error) {
	if strings.TrimSpace(p.Command) == "" {
		return nil, fmt.Errorf("agent_plugins.%s: subprocess plugin requires command: (the program to run, e.g. command: ./bin/my-agent)", p.Alias)
	}
	t := &subprocessTransport{alias: p.Alias, redact: bc.Mask}
	t.client = childproc.New(childproc.Config{
		Who:     "subprocess plugin " + p.Alias,
		Command: bc.storyPath(p.Command),
		Args:    append([]string(nil), p.Args...),
		Dir:     bc.StoryDir,
		// the minimal environment plus env:; on Close SIGTERM to its
		// group, SIGKILL after the grace
		Policy: proc.Policy{
			Env:       proc.Env{Policy: proc.EnvMinimal, Vars: proc.Set(maps.Clone(p.Env))},
			StdinPipe: true,
			TermGrace: subprocessTerminateGrace,
			WaitDelay: time.Second,
		},
		StartHint: fmt.Sprintf("check command: in agent_plugins.%s (an absolute path, a path relative to the story directory, or a program on PATH)",
			p.Alias),
		SHA256:   p.SHA256,
		PinWhere: fmt.Sprintf("agent_plugins.%s sha256: in %s", p.Alias, p.Pos),
		Redact:   t.redact,
		Cut:      bc.cut,
		Stray:    t.strayLine,
		FrameCap: bc.frameCap,
		Log:      bc.Logger,
		LogName:  "agent plugin",
		LogAttrs: []any{"agent", p.Alias},
	})
	return t, nil
}

type rpcRequestFrame struct {
	JSONRPC string      `json:"jsonrpc"`
	ID      int64       `json:"id"`
	Method  string      `json:"method"`
	Params  *AskRequest `json:"params"`
}

// Ask sends one agent.ask request and waits for its reply.
func (t *subprocessTransport) Ask(ctx context.Context, req *AskRequest) (*AskResponse, error) {
	var id int64
	var resp *AskResponse
	notes := notesOf(ctx)
	err := t.client.Call(ctx, childproc.Request{
		Encode: func() ([]byte, error) {
			// What the plugin wrote since the last answer is reported
			// with this call (the client stopped taking it as stray).
			notes.take(&t.stray)
			t.nextID++
			id = t.nextID
			b, err := json.Marshal(rpcRequestFrame{JSONRPC: "2.0", ID: id, Method: "agent.ask", Params: req})
			if err != nil {
				return nil, t.kept(KindTransportError, "could not encode the request: %v", err)
			}
			return b, nil
		},
		Decode: func(line []byte) (err error) {
			resp, err = t.parseReply(line, id)
			if errors.Is(err, errNotThisCall) {
				notes.addStray(t.strayText(line, "while request "+strconv.FormatInt(id, 10)+" was waiting"))
				return childproc.Skip()
			}
			return err
		},
	})
	if err == nil {
		return resp, nil
	}
	var ce *childproc.Error
	if !errors.As(err, &ce) {
		return nil, err // the decoder's *AskError: the process is kept
	}
	kind := KindPluginCrash
	switch ce.Failure {
	case childproc.Canceled, childproc.Timeout:
		kind = KindDeadlineExceeded
	case childproc.Closed:
		kind = KindTransportError
	}
	return nil, &AskError{Kind: kind, Detail: t.redact(ce.Error())}
}

// rpcReply is a JSON-RPC 2.0 response as read from the plugin. The result
// decodes straight into an AskResponse (one pass over a large answer); a
// json.RawMessage result is the fallback that explains one of the wrong
// shape.
type rpcReply[R any] struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  R               `json:"result"`
	Error   *rpcErrorObject `json:"error"`
}

type rpcErrorObject struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// askWire is an AskResponse as decoded from a reply line: its submission
// is kept as the slice of the line it is (the line is the reply's own and
// is not reused), not copied, which for a big answer is one copy less.
type askWire struct {
	AskResponse
	Submission lineSlice `json:"submission,omitempty"`
}

// lineSlice is raw JSON kept where it lies, as json.RawMessage would
// hold a copy of it (null included).
type lineSlice []byte

func (s *lineSlice) UnmarshalJSON(b []byte) error {
	*s = slices.Clip(b) // an append must not write into the rest of the line
	return nil
}

// response is the AskResponse w holds (nil for nil).
func (w *askWire) response() *AskResponse {
	if w == nil {
		return nil
	}
	r := w.AskResponse
	r.Submission = json.RawMessage(w.Submission)
	return &r
}

// parseReply decodes one stdout line as the reply to request id. A line
// that breaks the protocol is a childproc.Fatal error (the process goes);
// an error reply is an *AskError (the process stays).
func (t *subprocessTransport) parseReply(line []byte, id int64) (*AskResponse, error) {
	var w rpcReply[*askWire]
	var resultErr error
	err := json.Unmarshal(line, &w)
	f := rpcReply[*AskResponse]{JSONRPC: w.JSONRPC, ID: w.ID, Method: w.Method, Error: w.Error, Result: w.Result.response()}
	if err != nil {
		var raw rpcReply[json.RawMessage]
		if rerr := json.Unmarshal(line, &raw); rerr != nil {
			return nil, childproc.Fatal(fmt.Errorf("wrote a stdout line that is not a JSON-RPC message (%s): %q; plugins must write only JSON-RPC frames to stdout and log to stderr",
				jsonvalue.Reason(line, rerr), childproc.Snippet(t.redact, string(line))))
		}
		// Valid JSON-RPC, but the result is not an AskResponse.
		f = rpcReply[*AskResponse]{JSONRPC: raw.JSONRPC, ID: raw.ID, Method: raw.Method, Error: raw.Error}
		resultErr = errors.New(jsonvalue.Reason(line, err))
		if len(raw.Result) > 0 {
			var r AskResponse
			if rerr := json.Unmarshal(raw.Result, &r); rerr != nil {
				resultErr = fmt.Errorf("%s: %q", jsonvalue.Reason(raw.Result, rerr), childproc.Snippet(t.redact, plainJSON(raw.Result)))
			}
		}
	}
	// A reply without "jsonrpc" or without an id (absent or null) is taken
	// as the answer to the one request in flight, as the existing engine
	// takes it (it checks neither); a wrong value is still a broken stream.
	bare := f.Method == ""
	if stale(f.ID, id) || (!bare && len(f.ID) == 0) {
		return nil, errNotThisCall // an earlier request's extra or late reply, a notification
	}
	if f.JSONRPC != "2.0" && !(bare && f.JSONRPC == "") {
		return nil, childproc.Fatal(fmt.Errorf(`answered with "jsonrpc":%q, want "2.0" (line: %q)`,
			f.JSONRPC, childproc.Snippet(t.redact, plainJSON(line))))
	}
	if got := string(bytes.TrimSpace(f.ID)); got != strconv.FormatInt(id, 10) && !(bare && (got == "" || got == "null")) {
		if f.Method != "" {
			got = "none; it is a " + strconv.Quote(f.Method) + " message"
		}
		return nil, childproc.Fatal(fmt.Errorf("answered, but the reply id is %s, want %d: plugins must answer each request once, in order, echoing its id",
			got, id))
	}
	if f.Error != nil {
		d := fmt.Sprintf("%d: %s", f.Error.Code, childproc.Snippet(t.redact, f.Error.Message))
		if len(f.Error.Data) > 0 && string(f.Error.Data) != "null" {
			d += " (data: " + childproc.Snippet(t.redact, plainJSON(f.Error.Data)) + ")"
		}
		return nil, t.kept(KindPluginCrash, "answered JSON-RPC error %s", d)
	}
	if resultErr != nil {
		return nil, t.kept(KindPluginCrash, "answered with a result that is not an AskResponse (%v)", resultErr)
	}
	if f.Result == nil {
		return nil, t.kept(KindPluginCrash, "answered request %d with neither result nor error", id)
	}
	return f.Result, nil
}

// plainJSON is a JSON value as the plugin wrote it or, when it holds an
// escape, re-encoded without the escapes a plugin may have chosen
// ("\u0073ecret" is "secret" again), so that a secret in it is masked as
// it is spelled; text that is not JSON comes back as it is.
func plainJSON(b json.RawMessage) string {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	v, err := decodeJSON(b)
	if err != nil {
		return string(b)
	}
	out, err := jsonvalue.MarshalNoHTML(v)
	if err != nil {
		return string(b)
	}
	return string(out)
}

// errNotThisCall marks a reply line that is not the answer to the request
// in flight but harms no call: a reply to an earlier request (its second
// answer, or an answer to a call that is no longer waiting) or a JSON-RPC
// notification. The line is reported as stray and the call waits on.
var errNotThisCall = errors.New("not this call's reply")

// stale reports a reply id naming a request sent before id (1 ≤ n < id).
func stale(raw json.RawMessage, id int64) bool {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	return err == nil && n >= 1 && n < id
}

// strayLine keeps a line the plugin wrote while no call was waiting for
// the next call's trace event.
func (t *subprocessTransport) strayLine(line []byte) {
	t.stray.add(t.strayText(line, "after the answer to request "+strconv.FormatInt(t.lastID(), 10)))
}

// lastID is the id of the last request sent. The client calls Stray only
// between calls, after the request that set it.
func (t *subprocessTransport) lastID() int64 { return t.nextID }

// strayText describes a stray line: which plugin wrote it, when, and what
// (masked, cut to 256 bytes).
func (t *subprocessTransport) strayText(line []byte, when string) string {
	return t.redact(fmt.Sprintf("subprocess plugin %s wrote a line that answers no waiting call %s (discarded; answer each request once, echoing its id): %q",
		t.alias, when, childproc.Snippet(t.redact, plainJSON(line))))
}

// kept is an error of a call whose plugin process stays.
func (t *subprocessTransport) kept(kind Kind, format string, args ...any) *AskError {
	return &AskError{Kind: kind, Detail: t.redact("subprocess plugin " + t.alias + " " + fmt.Sprintf(format, args...))}
}

// Close stops the plugin: stdin closed, SIGTERM to its process group,
// SIGKILL after 2 s. Idempotent; a call in flight fails with transport_error.
func (t *subprocessTransport) Close() error { return t.client.Close() }
