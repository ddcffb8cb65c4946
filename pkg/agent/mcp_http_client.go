package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
)

// SameOriginRedirects is the redirect policy (http.Client.CheckRedirect)
// of a transport that talks to a declared endpoint (mcp_http, a
// local_llm endpoint): a redirect within the endpoint's origin (scheme,
// host and port) is followed; one to another origin is refused, since the
// request carries the declared headers (a token; Go's client forwards
// every one but Authorization and Cookie) and the call's prompt and world.
// mask (nil: none) masks the target in the error.
func SameOriginRedirects(endpoint *url.URL, mask func(string) string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if req.URL.Scheme != endpoint.Scheme || req.URL.Host != endpoint.Host {
			to := req.URL.Scheme + "://" + req.URL.Host
			if mask != nil {
				to = mask(to)
			}
			return fmt.Errorf("the endpoint redirected to another origin (%s, not %s://%s), where kitsoki sends neither its headers nor the call; set endpoint: to the URL that serves MCP",
				to, endpoint.Scheme, endpoint.Host)
		}
		return nil
	}
}

// headerRoundTripper adds the declared headers to every request, and ties
// every request to the transport's lifetime: Close aborts what still runs
// (a session DELETE to a server that hangs, a dropped session's teardown).
type headerRoundTripper struct {
	base    http.RoundTripper
	headers http.Header
	closed  context.Context
	maxJSON func() int // the cap of a non-event-stream body (the transport's maxEvent)
	// costFloor is jsoncost.Floor for an answer's check (0: that floor),
	// the transport's, which tests lower.
	costFloor func() int64
}

// It also records the status and the start of the body of an HTTP error
// answer in the call's httpFailure (the SDK's error keeps only the status
// text), so transport_error can carry the server's own words.
func (h *headerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(r.Context())
	stop := context.AfterFunc(h.closed, cancel)
	release := func() { stop(); cancel() }
	r2 := r.Clone(ctx)
	maps.Copy(r2.Header, h.headers)
	resp, err := h.base.RoundTrip(r2)
	if err != nil {
		release()
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	if resp.StatusCode < 400 {
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		switch {
		case h.maxJSON == nil:
		case mt != "text/event-stream":
			// One JSON body is one answer, read whole by the SDK: the same
			// cap as one server-sent event (the SDK bounds those).
			capped := &cappedBody{ReadCloser: resp.Body, left: int64(h.maxJSON()) + 1, limit: h.maxJSON()}
			resp.Body = &costlyJSON{ReadCloser: capped, floor: h.costFloor()}
		default:
			rec, _ := r.Context().Value(httpFailureKey{}).(*httpFailure)
			resp.Body = newCostlyEvents(resp.Body, h.maxJSON(), h.costFloor(), rec)
		}
		return resp, nil
	}
	if rec, ok := r.Context().Value(httpFailureKey{}).(*httpFailure); ok {
		head, _ := io.ReadAll(io.LimitReader(resp.Body, httpFailureBodyBytes))
		rec.set(resp.Status, string(head))
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	}
	return resp, nil
}

// cappedBody fails a body longer than limit bytes, naming the limit.
type cappedBody struct {
	io.ReadCloser
	left  int64 // bytes that may still be read, plus one
	limit int
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left <= 0 {
		return n, fmt.Errorf("the JSON answer is larger than the limit of %d bytes for one answer; answer with less", b.limit)
	}
	return n, err
}

// releasingBody releases a request's lifetime hook when its body is
// closed (release may run more than once: stop and cancel are idempotent).
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// httpFailureBodyBytes is how much of an HTTP error body is kept.
const httpFailureBodyBytes = 2 << 10

type httpFailureKey struct{}

// httpFailure is the last HTTP error answer seen by one call, as the
// words its error ends with ("" when there was none).
type httpFailure struct{ text atomic.Pointer[string] }

func (f *httpFailure) set(status, body string) {
	text := "; the server answered HTTP " + status
	if body = strings.TrimSpace(body); body != "" {
		text += ": " + body
	}
	f.text.Store(&text)
}

// refused records kitsoki's own refusal of an answer, which the SDK's
// error for a broken event stream does not carry.
func (f *httpFailure) refused(err error) {
	text := "; " + err.Error()
	f.text.Store(&text)
}

func (f *httpFailure) String() string {
	if t := f.text.Load(); t != nil {
		return *t
	}
	return ""
}
