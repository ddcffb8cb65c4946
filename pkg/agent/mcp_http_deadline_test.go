package agent

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"kitsoki/internal/testing/agentplugins/mcpecho"
	"kitsoki/pkg/story"
)

// noticeHolder serves inner, except the notifications/cancelled notices the
// SDK sends when a call's context ends: it holds each until the test's call
// has returned, and records whether the client cut it first (the call
// waited for the notice until the SDK gave up on it).
type noticeHolder struct {
	inner    http.Handler
	arrived  chan struct{} // a request other than a notice reached the server
	returned chan struct{} // closed by the test once its call returned
	cut      chan bool
}

func newNoticeHolder(inner http.Handler) *noticeHolder {
	return &noticeHolder{inner: inner, arrived: make(chan struct{}, 1), returned: make(chan struct{}), cut: make(chan bool, 16)}
}

func (h *noticeHolder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if bytes.Contains(body, []byte(`"notifications/cancelled"`)) {
		select {
		case <-h.returned:
			h.cut <- false
		case <-r.Context().Done():
			select {
			case <-h.returned:
				h.cut <- false
			default:
				h.cut <- true
			}
		}
		return
	}
	if bytes.Contains(body, []byte(`"tools/call"`)) || h.inner == nil {
		select {
		case h.arrived <- struct{}{}:
		default:
		}
	}
	if h.inner == nil {
		<-r.Context().Done() // never answers
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.inner.ServeHTTP(w, r)
}

// A call to a server that never answers — initialize, or the tool call —
// nor the notifications/cancelled notice the SDK sends when the call's
// context ends, returns at its deadline: it does not wait for that notice
// (which the SDK itself cuts only after its own timeout). The SDK sends
// the notice in the background, so whether it waits is a race; with
// MCPGODEBUG=blockingcancelnotify=1 (an SDK switch a user may set, read as
// the program starts) it waits every time, so the test runs itself once
// more in a process with it set.
func TestMCPHTTPReturnsAtItsDeadline(t *testing.T) {
	if os.Getenv("MCPGODEBUG") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMCPHTTPReturnsAtItsDeadline$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "MCPGODEBUG=blockingcancelnotify=1")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Count(string(out), "--- PASS: TestMCPHTTPReturnsAtItsDeadline") != 3 {
			t.Fatalf("with the SDK's blocking cancellation notice: %v\n%s", err, out)
		}
	}
	for _, c := range []struct {
		name  string
		inner func() (http.Handler, func())
		req   *AskRequest
	}{
		{"initialize", func() (http.Handler, func()) { return nil, func() {} }, referenceRequest()},
		{"tools/call", func() (http.Handler, func()) {
			srv := mcpecho.New(mcpecho.Options{})
			return srv, srv.Stop
		}, withFault("hang")},
	} {
		t.Run(c.name, func(t *testing.T) {
			inner, stop := c.inner()
			h := newNoticeHolder(inner)
			ts := httptest.NewServer(h)
			tr := newMCPTransport(t, &story.AgentPlugin{Endpoint: ts.URL}, "")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				<-h.arrived // the deadline passes once the request is at the server
				cancel()
			}()
			askKind(t, tr, ctx, c.req, KindDeadlineExceeded)
			close(h.returned)
			if err := tr.Close(); err != nil {
				t.Fatal(err)
			}
			stop()
			ts.CloseClientConnections()
			ts.Close() // every handler has ended, so has sent what it saw
			for len(h.cut) > 0 {
				if <-h.cut {
					t.Fatal("the call returned only after its cancellation notice was given up: it waited past its deadline for a server that never answers")
				}
			}
		})
	}
}
