package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"kitsoki/internal/childproc"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/proc"
)

// External hook processes and host providers run as one child process per
// plugin through internal/childproc: started on the first call, reused, one
// call at a time, killed on a failure or timeout (its state is unknown),
// one JSON line each way. A call whose child was gone is sent once more to
// a new child.

// childPolicy is how a hook or host-provider process runs: kitsoki's whole
// environment (a story's own program needs the user's configuration) unless
// Options.MinimalEnv; on Close stdin closed, then SIGKILL to its group (no
// SIGTERM: the protocol's stop is the end of stdin).
var childPolicy = proc.Policy{
	Env:        proc.Env{Policy: proc.EnvInherit},
	StdinPipe:  true,
	StdinGrace: 500 * time.Millisecond,
	WaitDelay:  time.Second,
}

// strays is what a hook or host-provider process wrote while no call was
// waiting for an answer (a second answer to a call, an answer to a call
// that timed out): dropped, so it is never read as the next call's reply,
// and reported by failing the next call (its protocol has no id to match
// an answer by, nor a place for a note).
type strays struct {
	mu    sync.Mutex
	first string // the first such line, cut
	n     int
}

func (s *strays) add(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		s.first = string(line[:min(len(line), 1024)]) // masked and cut again when quoted
	}
	s.n++
}

// check is the error of a call made after stray output, naming who and
// quoting the first line (masked); nil when there was none. It resets.
func (s *strays) check(who string, mask func(string) string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return nil
	}
	n, first := s.n, s.first
	s.n, s.first = 0, ""
	return fmt.Errorf("%s wrote %d stdout line(s) while no call was waiting for an answer (the first: %q): such a line (a second or late answer) is dropped, never taken as another call's reply, and this call was not sent; answer each call exactly once",
		who, n, childproc.Snippet(mask, first))
}

// ids numbers the requests written to one plugin's processes: each request
// line carries the next as "id" (1, 2, …, across restarts), and an answer
// may echo it. The field is optional both ways: a process that ignores it
// is served as before, its answer taken as the reply to the request in
// flight; one that echoes it closes the last window of the protocol — a
// second or late answer written after the next request was sent, which
// without an id is that request's answer.
type ids struct {
	mu   sync.Mutex
	last int64
}

func (c *ids) next() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last++
	return c.last
}

// matchID decides an answer line by the "id" it echoes (id, as written;
// the request sent had id sent): nil when it is this call's answer or
// echoes none (absent or null); [childproc.Skip] for an id this plugin was
// sent before (a second or late answer: taken aside as stray output, so
// the next call fails unsent naming it, and the call goes on waiting for
// its own); and a [childproc.Fatal] error for any other id (the process is
// out of step with its requests).
func (s *strays) matchID(line []byte, id json.RawMessage, sent int64, who, about string, mask func(string) string) error {
	raw := strings.TrimSpace(string(id))
	if raw == "" || raw == "null" {
		return nil
	}
	got, err := strconv.ParseInt(raw, 10, 64)
	switch {
	case err == nil && got == sent:
		return nil
	case err == nil && got >= 1 && got < sent:
		s.add(line)
		return childproc.Skip()
	}
	return childproc.Fatal(fmt.Errorf("%s answered %s with id %s, but the request it was sent has id %d: echo each request's \"id\" as it came (a whole number), or leave \"id\" out of the answer",
		who, about, childproc.Snippet(mask, raw), sent))
}

// pluginProc is one external plugin's process, serving its hooks
// (procHandler) or its host handlers (hostProc): who names it in errors,
// mask (nil: none) masks the story's agent secrets in what it writes.
type pluginProc struct {
	client *childproc.Client
	who    string
	mask   func(string) string
	stray  strays
	ids    ids
}

// newPluginProc is m's process, named who in its errors, with env as its
// environment (Assembly.childEnv) and timeout per call, armed by after
// (Assembly.childAfter).
func newPluginProc(m *Manifest, env proc.EnvPolicy, after func(time.Duration) <-chan time.Time, who string, timeout time.Duration, mask func(string) string) *pluginProc {
	command := m.Entry.Command
	if strings.ContainsRune(command, filepath.Separator) && !filepath.IsAbs(command) {
		command = filepath.Join(m.Dir, command)
	}
	pol := childPolicy
	pol.Env.Policy = env
	p := &pluginProc{who: who, mask: mask}
	p.client = childproc.New(childproc.Config{
		Who:         who,
		Command:     command,
		Args:        m.Entry.Args,
		Dir:         m.Dir,
		Policy:      pol,
		StartHint:   "fix entry.command in " + m.Path,
		SHA256:      m.Entry.SHA256,
		PinWhere:    "entry.sha256 in " + m.Path,
		Timeout:     timeout,
		TimeoutHint: "entry.timeout_ms",
		After:       after,
		Redact:      mask,
		Loose:       true,
		Stray:       p.stray.add,
	})
	return p
}

// Close stops the process.
func (p *pluginProc) Close() error { return p.client.Close() }

// call makes one call, and once more on a new child when the first found
// its child gone. encode builds the request line with the next id when
// the call's turn comes (so ids follow the order requests are written),
// unless the process wrote stray output before then, which fails the
// call unsent; decode reads an answer line to the request with id sent.
// about names the call in the client's errors ("": none).
func (p *pluginProc) call(ctx context.Context, about string, encode func(id int64) ([]byte, error), decode func(line []byte, sent int64) error) error {
	var sent int64
	r := childproc.Request{About: about, Encode: func() ([]byte, error) {
		if err := p.stray.check(p.who, p.mask); err != nil {
			return nil, err
		}
		sent = p.ids.next()
		return encode(sent)
	}, Decode: func(line []byte) error { return decode(line, sent) }}
	err := p.client.Call(ctx, r)
	var ce *childproc.Error
	if errors.As(err, &ce) && ce.Gone() && ctx.Err() == nil {
		err = p.client.Call(ctx, r)
	}
	return err
}

// procHandler serves an external plugin's hooks from its child process:
// one line {id, point, payload} -> {id?, outcome, reason?, payload?} per
// call (an echoed id: matchID).
type procHandler struct{ *pluginProc }

func newProcHandler(m *Manifest, env proc.EnvPolicy, after func(time.Duration) <-chan time.Time, mask func(string) string) *procHandler {
	return &procHandler{newPluginProc(m, env, after, fmt.Sprintf("external plugin %s (%s)", m.ID, m.Entry.Command), m.Timeout(), mask)}
}

type request struct {
	ID      int64   `json:"id"`
	Point   Point   `json:"point"`
	Payload Payload `json:"payload"`
}

func (h *procHandler) Hook(ctx context.Context, point Point, payload Payload) (Result, error) {
	var res Result
	err := h.call(ctx, "", func(id int64) ([]byte, error) {
		line, err := json.Marshal(request{ID: id, Point: point, Payload: payload})
		if err != nil {
			return nil, fmt.Errorf("hook payload does not encode as JSON: %v", err)
		}
		return line, nil
	}, func(out []byte, sent int64) error {
		a, err := parseAnswer(out)
		if err != nil {
			return childproc.Fatal(fmt.Errorf("answered with a line that is not a JSON result: %q (%v); answer one {\"outcome\":...} object per line", childproc.Snippet(nil, string(out)), err))
		}
		if err := h.stray.matchID(out, a.ID, sent, h.who, "the "+string(point)+" hook", h.mask); err != nil {
			return err
		}
		res = a.Result
		return nil
	})
	return res, err
}

// hookAnswer is one answer line of an external hook process: the result
// and the request id it echoes, if any.
type hookAnswer struct {
	ID json.RawMessage `json:"id"`
	Result
}

// parseAnswer decodes one answer line of an external hook process:
// {id?, outcome, reason?, payload?}. Numbers become int64 or float64.
func parseAnswer(line []byte) (hookAnswer, error) {
	var a hookAnswer
	if err := jsonvalue.OneExact(line, &a); err != nil {
		return hookAnswer{}, err
	}
	if a.Payload != nil {
		a.Payload = jsonvalue.Int64s(a.Payload).(map[string]any)
	}
	return a, nil
}
