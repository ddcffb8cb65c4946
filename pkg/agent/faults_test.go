package agent_test

// Fault tests through Registry.Dispatch, each with a real process or a real
// MCP server: a plugin that exits mid-call, prints garbage, never answers,
// answers after the deadline, or answers 50 MB; an MCP server that returns
// 500, hangs or drops the connection; two sessions dispatching at once; and
// planted secrets that must not reach any error, event or log line. Every
// test checks that no child process is left behind.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/internal/testing/agenttest"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/story"
)

const (
	subAlias = "agent.sub"
	mcpAlias = "agent.mcp"
)

// faultSession is one session: a registry with a subprocess alias (the
// echoagent program) and an mcp_http alias (the mcpecho server).
type faultSession struct {
	fx  *agenttest.Fixture
	log *storytest.SyncBuffer
}

// newFaultSession builds the session against srv (its hanging calls are
// released before the registry closes).
func newFaultSession(t *testing.T, echoBin string, srv *mcpecho.Server, env, headers map[string]string) faultSession {
	t.Helper()
	endpoint := srv.URL
	log := &storytest.SyncBuffer{}
	fx := agenttest.NewFixture(t, map[string]*story.AgentPlugin{
		subAlias: {Alias: subAlias, Plugin: story.PluginSubprocess, Command: echoBin, Args: []string{"-alias", subAlias}, Env: env,
			Secrets: slices.Collect(maps.Values(env))}, // as if each came from ${VAR}
		mcpAlias: {Alias: mcpAlias, Plugin: story.PluginMCPHTTP, Endpoint: endpoint, Headers: headers},
	}, agent.RegistryOptions{Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	t.Cleanup(srv.Stop) // registered after the registry: runs before it closes
	return faultSession{fx: fx, log: log}
}

func newMCPServer(t *testing.T) *mcpecho.Server {
	t.Helper()
	srv := mcpecho.New(mcpecho.Options{})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { srv.Stop(); ts.CloseClientConnections(); ts.Close() })
	srv.URL = ts.URL + "/mcp"
	return srv
}

func faultCall(alias, fault string, timeout time.Duration) agent.Call {
	c := agenttest.ReferenceCall()
	c.Alias = alias
	c.Timeout = timeout
	if fault != "" {
		c.With = map[string]any{"fault": fault}
	}
	return c
}

func dispatchErr(t *testing.T, s faultSession, c agent.Call, want agent.Kind, detail string) *agent.AskError {
	t.Helper()
	res, err := s.fx.Registry.Dispatch(context.Background(), c)
	if err == nil {
		t.Fatalf("%s: want %s, got %s", c.Alias, want, res.Submission)
	}
	var ae *agent.AskError
	if !errors.As(err, &ae) || ae.Kind != want {
		t.Fatalf("%s: want %s, got %v", c.Alias, want, err)
	}
	if !strings.Contains(ae.Detail, detail) {
		t.Fatalf("%s: detail lacks %q:\n%s", c.Alias, detail, ae.Detail)
	}
	return ae
}

func dispatchOK(t *testing.T, s faultSession, c agent.Call) *agent.Result {
	t.Helper()
	res, err := s.fx.Registry.Dispatch(context.Background(), c)
	if err != nil {
		t.Fatalf("%s: %v", c.Alias, err)
	}
	return res
}

func TestFaults(t *testing.T) {
	echoBin := agent.BuildTestPlugin(t, "echoagent")
	// long is a hang guard for calls that must answer, not a speed bound:
	// under -race on a loaded machine the big answer alone took 27 s.
	long := 3 * time.Minute

	t.Run("plugin exits mid-call", func(t *testing.T) {
		agent.CheckNoChildren(t)
		s := newFaultSession(t, echoBin, newMCPServer(t), nil, nil)
		dispatchErr(t, s, faultCall(subAlias, "crash", long), agent.KindPluginCrash, "exit status 3")
		dispatchErr(t, s, faultCall(subAlias, "partial", long), agent.KindPluginCrash, "stopped in the middle of an answer")
		if got := string(dispatchOK(t, s, faultCall(subAlias, "", long)).Submission); got != agenttest.ReferenceSubmission {
			t.Fatalf("after the crash: %s", got)
		}
		kinds := s.fx.Sink.Kinds()
		want := []string{agent.EventCallStart, agent.EventCallError, agent.EventCallStart, agent.EventCallError, agent.EventCallStart, agent.EventCallComplete}
		if strings.Join(kinds, " ") != strings.Join(want, " ") {
			t.Fatalf("events %v", kinds)
		}
	})
	t.Run("plugin prints garbage", func(t *testing.T) {
		agent.CheckNoChildren(t)
		s := newFaultSession(t, echoBin, newMCPServer(t), nil, nil)
		dispatchErr(t, s, faultCall(subAlias, "garbage", long), agent.KindPluginCrash, "hello from a plugin that logs to stdout")
		dispatchErr(t, s, faultCall(mcpAlias, "garbage", long), agent.KindTransportError, "this is not json")
	})
	t.Run("plugin never answers", func(t *testing.T) {
		agent.CheckNoChildren(t)
		s := newFaultSession(t, echoBin, newMCPServer(t), nil, nil)
		dispatchErr(t, s, faultCall(subAlias, "hang", 300*time.Millisecond), agent.KindDeadlineExceeded, "deadline")
		dispatchOK(t, s, faultCall(subAlias, "", long))
	})
	t.Run("plugin answers after the deadline", func(t *testing.T) {
		agent.CheckNoChildren(t)
		s := newFaultSession(t, echoBin, newMCPServer(t), nil, nil)
		for _, a := range []string{subAlias, mcpAlias} {
			dispatchErr(t, s, faultCall(a, "late", 300*time.Millisecond), agent.KindDeadlineExceeded, "deadline")
			c := faultCall(a, "", long)
			c.Prompt = "the next call's own prompt"
			if res := dispatchOK(t, s, c); !bytes.Contains(res.Submission, []byte("the next call's own prompt")) {
				t.Fatalf("%s: got a late answer: %s", a, res.Submission)
			}
		}
		for _, e := range s.fx.Sink.Events() {
			if e.Kind == agent.EventCallComplete && strings.Contains(string(mustJSON(e.Payload)), "which is the best option") {
				t.Fatalf("a late answer reached the trace: %s", mustJSON(e.Payload))
			}
		}
	})
	t.Run("50 MB answer", func(t *testing.T) {
		agent.CheckNoChildren(t)
		s := newFaultSession(t, echoBin, newMCPServer(t), nil, nil)
		for _, a := range []string{subAlias, mcpAlias} {
			c := faultCall(a, "big:"+strconv.Itoa(bigAnswerBytes), long)
			c.SchemaPath = "" // the reference schema forbids the extra "blob" key
			t0 := time.Now()
			res := dispatchOK(t, s, c)
			t.Logf("%s: %d MiB answer in %v", a, bigAnswerBytes>>20, time.Since(t0))
			if len(res.Submission) < bigAnswerBytes || !bytes.HasSuffix(res.Submission, []byte(`"echo_verb":"decide"}`)) {
				t.Fatalf("%s: submission of %d bytes", a, len(res.Submission))
			}
		}
	})
	t.Run("MCP server returns 500, hangs, drops the connection", func(t *testing.T) {
		agent.CheckNoChildren(t)
		s := newFaultSession(t, echoBin, newMCPServer(t), nil, nil)
		dispatchErr(t, s, faultCall(mcpAlias, "http500", long), agent.KindTransportError, "500 Internal Server Error: internal failure: deliberate")
		dispatchErr(t, s, faultCall(mcpAlias, "drop", long), agent.KindTransportError, `calling tool "ask"`)
		dispatchErr(t, s, faultCall(mcpAlias, "is_error", long), agent.KindTransportError, "deliberate tool failure")
		dispatchErr(t, s, faultCall(mcpAlias, "hang", 300*time.Millisecond), agent.KindDeadlineExceeded, "deadline")
		if got := string(dispatchOK(t, s, faultCall(mcpAlias, "", long)).Submission); got != agenttest.ReferenceSubmission {
			t.Fatalf("after the faults: %s", got)
		}
	})
	t.Run("MCP server is gone", func(t *testing.T) {
		srv := mcpecho.New(mcpecho.Options{})
		ts := httptest.NewServer(srv)
		srv.URL = ts.URL + "/mcp"
		ts.Close()
		s := newFaultSession(t, echoBin, srv, nil, nil)
		dispatchErr(t, s, faultCall(mcpAlias, "", long), agent.KindTransportError, "connecting (MCP initialize)")
	})
	t.Run("two sessions dispatch concurrently", func(t *testing.T) {
		agent.CheckNoChildren(t)
		srv := newMCPServer(t)
		sessions := []faultSession{
			newFaultSession(t, echoBin, srv, nil, nil),
			newFaultSession(t, echoBin, srv, nil, nil),
		}
		var wg sync.WaitGroup
		errs := make(chan error, 40)
		pids := make([]map[float64]bool, 2)
		var mu sync.Mutex
		for i, s := range sessions {
			pids[i] = map[float64]bool{}
			for n := range 10 {
				for _, a := range []string{subAlias, mcpAlias} {
					wg.Go(func() {
						c := faultCall(a, "", long)
						c.Turn = int64(n + 1)
						res, err := s.fx.Registry.Dispatch(context.Background(), c)
						if err == nil && string(res.Submission) != agenttest.ReferenceSubmission {
							err = errors.New("wrong submission " + string(res.Submission))
						}
						if err == nil && a == subAlias {
							mu.Lock()
							pids[i][res.Meta["pid"].(float64)] = true
							mu.Unlock()
						}
						errs <- err
					})
				}
			}
		}
		agent.WaitNoError(t, &wg, errs)
		if len(pids[0]) != 1 || len(pids[1]) != 1 {
			t.Fatalf("each session must reuse one plugin process: %v", pids)
		}
		for p := range pids[0] {
			if pids[1][p] {
				t.Fatal("two sessions shared one plugin process")
			}
		}
		if n := srv.Sessions(); n != 2 {
			t.Fatalf("two sessions, the MCP server saw %d", n)
		}
		// Same calls, same ids: call ids are deterministic per session.
		a, b := sessions[0].fx.Sink.Events(), sessions[1].fx.Sink.Events()
		ids := func(evs []agent.Event) map[string]bool {
			m := map[string]bool{}
			for _, e := range evs {
				if e.Kind == agent.EventCallStart {
					m[e.CallID] = true
				}
			}
			return m
		}
		ia, ib := ids(a), ids(b)
		if len(ia) != 20 || len(ib) != 20 {
			t.Fatalf("distinct call ids: %d and %d, want 20 each", len(ia), len(ib))
		}
		for id := range ia {
			if !ib[id] {
				t.Fatalf("call id %s of session 1 not derived in session 2", id)
			}
		}
	})
	t.Run("secrets never leak", func(t *testing.T) {
		agent.CheckNoChildren(t)
		const envSecret, hdrSecret = "env-secret-4f1c9e", "hdr-secret-77ab20"
		s := newFaultSession(t, echoBin, newMCPServer(t),
			map[string]string{"ECHO_STDERR": envSecret},
			map[string]string{"Authorization": "Bearer " + hdrSecret})
		var produced []string
		for _, c := range []struct {
			alias, fault string
			kind         agent.Kind
		}{
			{subAlias, "crash", agent.KindPluginCrash},
			{mcpAlias, "echo_auth", agent.KindTransportError},
		} {
			ae := dispatchErr(t, s, faultCall(c.alias, c.fault, long), c.kind, agent.Redacted)
			produced = append(produced, ae.Error())
		}
		dispatchOK(t, s, faultCall(subAlias, "", long))
		produced = append(produced, s.fx.Sink.JSON()...)
		produced = append(produced, s.log.String())
		all := strings.Join(produced, "\n")
		if !strings.Contains(s.log.String(), "agent plugin stderr") {
			t.Fatalf("plugin stderr not in the debug log:\n%s", s.log.String())
		}
		for _, secret := range []string{envSecret, hdrSecret} {
			if strings.Contains(all, secret) {
				t.Fatalf("secret %q leaked into:\n%s", secret, all)
			}
		}
	})
}

// A secret that spans lines (a PEM key, a JSON key file) is masked line by
// line too: a plugin's stderr reaches the debug log one line at a time, and
// a tail cut can start inside it.
func TestMultiLineSecretNeverLeaksLineByLine(t *testing.T) {
	agent.CheckNoChildren(t)
	echoBin := agent.BuildTestPlugin(t, "echoagent")
	lines := []string{"-----BEGIN TEST KEY-----", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "  bm90LWEtcmVhbC1rZXktanVzdC1h", "dGVzdC12YWx1ZQ==", "-----END TEST KEY-----"}
	secret := strings.Join(lines, "\n")
	s := newFaultSession(t, echoBin, newMCPServer(t), map[string]string{"ECHO_STDERR": secret}, nil)
	ae := dispatchErr(t, s, faultCall(subAlias, "crash", 3*time.Minute), agent.KindPluginCrash, agent.Redacted)
	all := ae.Error() + "\n" + s.log.String() + "\n" + strings.Join(s.fx.Sink.JSON(), "\n")
	if !strings.Contains(s.log.String(), "agent plugin stderr") {
		t.Fatalf("plugin stderr not in the debug log:\n%s", s.log.String())
	}
	for _, l := range lines[1:4] {
		if strings.Contains(all, strings.TrimSpace(l)) {
			t.Errorf("line %q of the secret leaked into:\n%s", l, all)
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
